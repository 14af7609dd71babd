// Stored inputs read back for /roll replay through each kind's schema, one system at a time: fields a roll stored
// that the schema does not name are kept and change nothing, a wrong value however deep is refused with its path,
// and inputs stored before a field existed still replay.
import { describe, expect, it } from 'vitest';
import { rederive, ReplayInputError } from '../../src/engine/replay.js';
import { seededRng } from '../../src/engine/rng.js';
import { attackInput } from '../helpers/attack-input.js';
import { attackDice, resolveAttack } from '../../src/engine/systems/d100-tactics/tactics.js';
import { poolDice, resolvePoolRoll } from '../../src/engine/systems/d10-pool/pool.js';
import { resolveCumulativeStep } from '../../src/engine/systems/d10-pool/cumulative.js';
import { resolveCodeCheck, type CodeCheckInput } from '../../src/engine/systems/result-points/check.js';
import { resolveContestRoll } from '../../src/engine/systems/tactalk/contest.js';

/** The words a user reads when a stored roll's inputs do not fit: the error must be a ReplayInputError. */
function refusal(kind: string, inputs: unknown): string {
  try {
    rederive(kind, inputs, 'seed');
  } catch (error) {
    expect(error).toBeInstanceOf(ReplayInputError);
    return (error as Error).message;
  }
  throw new Error(`the ${kind} roll replayed`);
}

const refused = (kind: string, what: string) => `The stored inputs of this ${kind} roll cannot be replayed: ${what}.`;

/**
 * A roll stored with fields its schema does not name replays as the same roll without them: the same dice and the
 * same result, whose input still holds them as stored.
 */
function expectSameRollWithExtras(kind: string, stored: object, withExtras: object, seed: string): void {
  const plain = rederive(kind, stored, seed);
  const extra = rederive(kind, withExtras, seed);
  expect(extra.dice).toEqual(plain.dice);
  expect(extra.result).toEqual({ ...(plain.result as object), input: withExtras });
}

describe('Tac Talk', () => {
  const challenge = {
    skill: { name: 'Lock Picking', level: 60 },
    archetypeModifiers: [{ name: 'Acuity', value: 10 }],
    conditionModifiers: [],
    situationalModifier: 0,
    challengeLevel: 80,
    force: false,
    hidden: false,
  };
  const oneSkillSide = (name: string, level: number, role: 'attacker' | 'defender', challengeLevel: number) => ({ skill: { name, level }, role, terms: [], challengeLevel });

  it('a challenge holding fields the schema does not name, at the top and inside its skill, rolls the same', () => {
    const stored = { ...challenge, skill: { ...challenge.skill, sheetId: 3 }, rolledBy: 'an older version' };
    expectSameRollWithExtras('challenge', challenge, stored, 'extra-challenge');
    // A contest side keeps them too: its part's skill is the stored one.
    const round = { challenger: oneSkillSide('CQC', 40, 'attacker', 37), opponent: oneSkillSide('CQC', 37, 'defender', 40) };
    const noted = { ...round, challenger: { ...round.challenger, skill: { name: 'CQC', level: 40, note: 'kept' } } };
    expect(rederive('contest', noted, 'extra-contest')).toMatchObject({ dice: rederive('contest', round, 'extra-contest').dice, result: { challenger: { skill: { note: 'kept' } } } });
  });

  it('refuses a level in words and a contest side of neither shape, naming where', () => {
    expect(refusal('challenge', { ...challenge, skill: { name: 'Lock Picking', level: 'forty' } })).toBe(refused('challenge', 'inputs.skill.level should be a number (it is "forty")'));
    expect(refusal('linked', [challenge, { ...challenge, conditionModifiers: [{ name: 'Tired', value: '-10' }] }])).toBe(
      refused('linked', 'inputs[1].conditionModifiers[0].value should be a number (it is "-10")'),
    );
    const side = { role: 'attacker', challengeLevel: 40 };
    expect(refusal('contest', { challenger: side, opponent: oneSkillSide('CQC', 37, 'defender', 40) })).toBe(
      refused('contest', `inputs.challenger should be a side with one skill or linked skills (it is ${JSON.stringify(side)})`),
    );
    // A side holding `linked` is a linked side, as the engine rolls it, even with a one-skill side's fields beside it.
    expect(refusal('contest', { challenger: { ...oneSkillSide('CQC', 40, 'attacker', 37), linked: null }, opponent: oneSkillSide('CQC', 37, 'defender', 40) })).toMatch(
      /: inputs\.challenger should be a side with one skill or linked skills \(it is /,
    );
  });

  it('a round stored before linked sides existed replays with its one skill a side', () => {
    const stored = { contestId: 4, round: 1, challenger: oneSkillSide('CQC', 37, 'attacker', 35), opponent: oneSkillSide('Shotgun Handling', 35, 'defender', 37) };
    const replayed = rederive('contest', stored, 'old-round');
    expect(replayed.dice).toHaveLength(2);
    // It carries no reading of both failing: it replays under the one it was decided by (the defender won).
    expect(replayed.result).toEqual(resolveContestRoll({ ...stored, bothFail: 'defender' }, seededRng('old-round')));
  });
});

describe('d100 tactics', () => {
  const attack = attackInput({ name: 'Sectoid', sheetId: 1, dodge: 20 }, { attacker: { name: 'Sasha', aim: 70, crit: 10 }, weaponBase: 5, weaponRange: 4 });

  it('an attack holding fields the schema does not name, at the top and inside its target, rolls the same', () => {
    expectSameRollWithExtras('attack', attack, { ...attack, target: { ...attack.target, species: 'sectoid' }, weapon: 'Rifle' }, 'extra-attack');
  });

  it("refuses a target's sheet id in words and a cover it does not know, naming where", () => {
    expect(refusal('attack', { ...attack, target: { ...attack.target, sheetId: '1' } })).toBe(refused('attack', 'inputs.target.sheetId should be a number (it is "1")'));
    expect(refusal('attack-applied', { ...attack, cover: 'partial' })).toBe(refused('attack-applied', 'inputs.cover should be one of "none", "half", "full" (it is "partial")'));
  });

  it('an attack stored before Crit and Dodge bonuses and Dash existed replays under the reading it was rolled with', () => {
    const { critBonus: _c, dodgeBonus: _d, dashing: _x, flankingNeedsOwnCrit: _f, ...stored } = attack;
    const replayed = rederive('attack', stored, 'old-attack');
    const rolled = resolveAttack({ ...attack, flankingNeedsOwnCrit: false }, seededRng('old-attack'));
    expect(replayed).toEqual({ kind: 'attack', result: rolled, dice: attackDice(rolled) });
  });

  it('an attack stored before its flanking reading was stored replays under the reading of its time (no Crit check from flanking alone)', () => {
    const { flankingNeedsOwnCrit: _f, ...stored } = attack;
    const replayed = rederive('attack', stored, 'old-attack');
    const rolled = resolveAttack({ ...attack, flankingNeedsOwnCrit: true }, seededRng('old-attack'));
    expect(replayed).toEqual({ kind: 'attack', result: rolled, dice: attackDice(rolled) });
  });
});

describe('result points', () => {
  const check: CodeCheckInput = { code: { dice: 3, pips: 2 }, boost: [], penalty: [], against: { kind: 'active', code: { dice: 3, pips: 0 } } };

  it('a check holding fields the schema does not name, at the top and inside its opposition, rolls the same', () => {
    expectSameRollWithExtras('code', check, { ...check, against: { ...check.against, who: 'Kat' }, channelId: '12' }, 'extra-code');
  });

  it('refuses a fixed value in words and an opposition of no kind it knows, naming where', () => {
    expect(refusal('code', { ...check, against: { kind: 'fixed', value: 'high', code: null } })).toBe(refused('code', 'inputs.against.value should be a number (it is "high")'));
    expect(refusal('code-spend', { ...check, against: { kind: 'luck' } })).toBe(
      refused('code-spend', 'inputs.against.kind should be one of "standing", "difficulty", "fixed", "active" (it is "luck")'),
    );
    expect(refusal('code', { ...check, effect: { dice: 2 } })).toBe(refused('code', 'inputs.effect.pips should be a number (it is missing)'));
  });

  it('a check stored before effect rolls and conceding existed replays', () => {
    const stored: CodeCheckInput = { ...check, against: { kind: 'fixed', value: 12, code: null } };
    expect(rederive('code', stored, 'old-code').result).toEqual(resolveCodeCheck(stored, seededRng('old-code')));
  });
});

describe('d6 pools', () => {
  const pool = { skill: 'Force', attribute: 'STR', skillLevel: 2, attributeValue: 3, gear: 1, modifiers: [{ name: 'help', value: 1 }], sheet: { id: 2, name: 'Troy d6' } };

  it('a roll holding fields the schema does not name, at the top and inside its sheet, rolls the same', () => {
    expectSameRollWithExtras('pool', pool, { ...pool, sheet: { ...pool.sheet, owner: 'mike' }, stakes: 'open the door' }, 'extra-pool');
  });

  it('refuses a modifier in words and an attribute it does not know, naming where', () => {
    expect(refusal('pool', { ...pool, modifiers: [{ name: 'help', value: '+1' }] })).toBe(refused('pool', 'inputs.modifiers[0].value should be a number (it is "+1")'));
    expect(refusal('pool-tiebreak', { rollId: 'abcdefgh', round: 1, active: pool, opponent: { ...pool, attribute: 'LUCK' } })).toBe(
      refused('pool-tiebreak', 'inputs.opponent.attribute should be one of "STR", "AGI", "WIT", "EMP" (it is "LUCK")'),
    );
  });

  it('a roll stored without a sheet, an opposition or stakes replays', () => {
    const stored = { ...pool, sheet: null };
    expect(rederive('pool', stored, 'old-pool')).toMatchObject({ kind: 'pool', result: { input: stored } });
  });
});

describe('d10 pools', () => {
  const roll = { dice: 4, targetNumber: 7, modifier: 1, calm: false, situations: ['in the dark'], aimPhases: 1 };
  const step = { dice: 4, targetNumber: 7, modifier: 0, calm: false, target: 20, count: null, maxRolls: 5, cumulativeId: 'abcdefgh', step: 1, before: { total: 0, successes: 0 } };

  it('a roll holding fields the schema does not name, at the top and inside its running state, rolls the same', () => {
    expectSameRollWithExtras('d10', roll, { ...roll, rolledBy: 'an older version' }, 'extra-d10');
    const extended = rederive('d10-extended', { ...step, before: { ...step.before, rolls: 0 } }, 'extra-step');
    expect(extended.dice).toEqual(rederive('d10-extended', step, 'extra-step').dice);
    expect(extended.result).toMatchObject({ input: { before: { rolls: 0 } } });
  });

  it('refuses a running total in words and a situation that is not a name, naming where', () => {
    expect(refusal('d10-extended', { ...step, before: { total: '3', successes: 0 } })).toBe(refused('d10-extended', 'inputs.before.total should be a number (it is "3")'));
    expect(refusal('d10', { ...roll, situations: ['in the dark', 3] })).toBe(refused('d10', 'inputs.situations[1] should be a string (it is 3)'));
  });

  it('rolls stored before situations and aiming existed replay', () => {
    const stored = { dice: 4, targetNumber: 7, modifier: 1, calm: false };
    const rolled = resolvePoolRoll(stored, seededRng('old-d10'));
    expect(rederive('d10', stored, 'old-d10')).toEqual({ kind: 'd10', result: rolled, dice: poolDice(rolled) });
    expect(rederive('d10-extended', step, 'old-step').result).toEqual(resolveCumulativeStep(step, seededRng('old-step')));
  });
});
