// Whether a replay gave the stored dice, for outcome rolls in both shapes the roll log holds; the registry's refusals.
import { describe, expect, it } from 'vitest';
import { diceMatch, rederive, ReplayInputError, ROLL_KINDS } from '../../src/engine/replay.js';
import type { OutcomeRollInput } from '../../src/engine/tables.js';

const input: OutcomeRollInput = {
  table: {
    name: 'Investigation: Lock Picking',
    die: 'd100',
    asks: 'Add your Lock Picking aptitude',
    skill: null,
    rows: [{ min: 1, max: 200, text: 'You learn nothing.', next: null, reveals: null }],
  },
  modifiers: [{ name: 'Lock Picking', value: 60 }],
};

describe('diceMatch for outcome rolls', () => {
  const replayed = rederive('outcome', input, 'replay-seed');
  const die = replayed.kind === 'outcome' ? replayed.result.roll.dice[0]!.d100! : null;

  it('matches the two dice an outcome roll stores', () => {
    expect(diceMatch(replayed, [{ tens: die!.tens, ones: die!.ones }])).toBe(true);
  });

  it('matches an investigation stored before its dice took that shape, as the roll log still holds it', () => {
    const legacy = JSON.parse(JSON.stringify([{ value: die!.value, d100: die }])) as unknown;
    expect(diceMatch(replayed, legacy)).toBe(true);
  });

  it('does not match other dice, in either shape', () => {
    const other = { tens: (die!.tens + 1) % 10, ones: die!.ones };
    expect(diceMatch(replayed, [other])).toBe(false);
    expect(diceMatch(replayed, [{ value: die!.value, d100: { ...die, tens: other.tens } }])).toBe(false);
  });
});

describe('the replay registry', () => {
  it('refuses a kind it does not know, naming it, and does not take the prototype of its registry for kinds', () => {
    expect(() => rederive('tarot', {}, 'seed')).toThrow('No replay for rolls of kind "tarot"');
    expect(() => rederive('toString', {}, 'seed')).toThrow('No replay for rolls of kind "toString"');
  });

  it('refuses inputs of another shape for every kind, naming the kind and what does not fit', () => {
    for (const kind of ROLL_KINDS) {
      expect(() => rederive(kind, null, 'seed'), kind).toThrow(ReplayInputError);
      expect(() => rederive(kind, null, 'seed'), kind).toThrow(new RegExp(`^The stored inputs of this ${kind} roll cannot be replayed: inputs should be an? (object|list) \\(it is null\\)\\.$`));
    }
  });

  it('names the field that does not fit, however deep', () => {
    const error = (() => {
      try {
        rederive('outcome', { ...input, modifiers: [{ name: 'Lock Picking', value: 'sixty' }] }, 'replay-seed');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ReplayInputError);
    expect((error as Error).message).toBe('The stored inputs of this outcome roll cannot be replayed: inputs.modifiers[0].value should be a number (it is "sixty").');
    expect(() => rederive('contest', { challenger: { role: 'attacker', challengeLevel: 40, linked: [{ skill: { name: 'CQC' }, terms: [] }] }, opponent: {} }, 's')).toThrow(
      'inputs.challenger.linked[0].skill.level should be a number (it is missing)',
    );
    expect(() => rederive('reaction', { kind: 'parry', value: 20, modifier: 0 }, 's')).toThrow('inputs.kind should be one of "defense", "dodge" (it is "parry")');
  });

  it('keeps the inputs as stored, fields it does not check included', () => {
    const stored = { ...input, rolledBy: 'an older version' };
    expect(rederive('outcome', stored, 'replay-seed')).toMatchObject({ kind: 'outcome', result: { input: stored } });
  });
});
