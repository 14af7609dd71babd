// Whether a replay gave the stored dice, for outcome rolls in both shapes the roll log holds.
import { describe, expect, it } from 'vitest';
import { diceMatch, rederive } from '../../src/engine/replay.js';
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
