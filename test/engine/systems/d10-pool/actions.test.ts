// The seed's sample actions (seed 004): the table as written, aiming (+1 per phase, 3 phases add) and fastdraw
// (success draws as a free action, failure loses this phase's action).
import { describe, expect, it } from 'vitest';
import { rederive } from '../../../../src/engine/replay.js';
import { seededRng } from '../../../../src/engine/rng.js';
import { AIM_PHASES_MAX, AIM_PHASES_THAT_ADD, aimingTerm, fastdrawOutcome, SAMPLE_ACTIONS } from '../../../../src/engine/systems/d10-pool/actions.js';
import { poolDice, resolveAdvancedRoll, resolvePoolRoll, type PoolInput } from '../../../../src/engine/systems/d10-pool/pool.js';
import { scriptedFaces } from '../../../helpers/faces.js';

function pool(overrides: Partial<PoolInput> = {}): PoolInput {
  return { dice: 3, targetNumber: 8, modifier: 0, calm: false, ...overrides };
}

describe('the sample actions table', () => {
  it('holds the seed’s seven actions with their time and cumulative column', () => {
    expect(SAMPLE_ACTIONS.map((action) => [action.name, action.time, action.cumulative])).toEqual([
      ['Fastdraw', 'free', false],
      ['Ready Firearm', 'free', false],
      ['Speak', 'free', true],
      ['Aiming', 'phase', 3],
      ['Firing Semi-Auto', 'phase', false],
      ['Draw Weapon', 'phase', false],
      ['Targeting', 'phase', false],
    ]);
    expect(AIM_PHASES_THAT_ADD).toBe(3);
  });
});

describe('aiming: a phase action, +1 per phase, cumulative for 3 phases', () => {
  it('adds +1 for each phase spent aiming: 1, 2, 3 phases → +1, +2, +3', () => {
    expect(aimingTerm(0)).toBeNull();
    expect(aimingTerm(1)).toEqual({ name: 'aiming (1 phase)', value: 1 });
    expect(aimingTerm(2)).toEqual({ name: 'aiming (2 phases)', value: 2 });
    expect(aimingTerm(3)).toEqual({ name: 'aiming (3 phases)', value: 3 });
  });

  it('phases past the third are taken but add nothing: 5 phases → +3, and says so', () => {
    expect(aimingTerm(5)).toEqual({ name: 'aiming (5 phases, only 3 add)', value: 3 });
    expect(aimingTerm(AIM_PHASES_MAX)!.value).toBe(3);
  });

  it('adds to the result, after the dice and before the modifier: 2, 8, 8 → 9, aimed 2 phases, −1 → 10', () => {
    const result = resolvePoolRoll(pool({ aimPhases: 2, modifier: -1, targetNumber: 10 }), scriptedFaces(2, 8, 8));
    expect(result.terms).toEqual([{ name: 'aiming (2 phases)', value: 2 }, { name: 'modifier', value: -1 }]);
    expect(result).toMatchObject({ result: 10, verdict: 'success' });
  });

  it('adds to an advanced roll too, after the secondary skill', () => {
    const result = resolveAdvancedRoll({ ...pool({ aimPhases: 1 }), secondary: 4, mode: 'additive', halve: false }, scriptedFaces(2, 8, 8));
    expect(result.terms).toEqual([{ name: 'secondary skill', value: 4 }, { name: 'aiming (1 phase)', value: 1 }]);
    expect(result.result).toBe(14);
  });

  it('refuses a negative count of phases or more than a minute of them (20)', () => {
    expect(() => resolvePoolRoll(pool({ aimPhases: -1 }), scriptedFaces(1, 2, 3))).toThrow(/Phases of aiming must be a whole number from 0 to 20; -1 is not/);
    expect(() => resolvePoolRoll(pool({ aimPhases: 21 }), scriptedFaces(1, 2, 3))).toThrow(/from 0 to 20; 21 is not/);
    expect(() => resolvePoolRoll(pool({ aimPhases: 1.5 }), scriptedFaces(1, 2, 3))).toThrow(/whole number/);
  });
});

describe('fastdraw: success makes drawing a free action; failure loses this phase’s action', () => {
  const fastdraw = (overrides: Partial<PoolInput> = {}) => pool({ action: 'fastdraw', ...overrides });

  it('Earl rolls and succeeds: the weapon is drawn as a free action, his phase action still to declare (the seed’s example)', () => {
    const result = resolvePoolRoll(fastdraw(), scriptedFaces(2, 8, 8));
    expect(result).toMatchObject({ verdict: 'success', success: true });
    expect(fastdrawOutcome(result)).toBe('drawn as a free action');
  });

  it('a failure loses this phase’s action', () => {
    const result = resolvePoolRoll(fastdraw(), scriptedFaces(2, 3, 4));
    expect(result.verdict).toBe('failure');
    expect(fastdrawOutcome(result)).toBe('phase action lost');
  });

  it('a near miss is a failure, not a partial success: the draw is fast or it is not', () => {
    const nearMiss = resolvePoolRoll(fastdraw(), scriptedFaces(2, 7, 3));
    expect(nearMiss).toMatchObject({ result: 7, verdict: 'failure', success: false });
    expect(fastdrawOutcome(nearMiss)).toBe('phase action lost');
    // The same dice on an ordinary roll are a partial success.
    expect(resolvePoolRoll(pool(), scriptedFaces(2, 7, 3)).verdict).toBe('partial success');
  });

  it('a botch under stress loses the action too', () => {
    const botch = resolvePoolRoll(fastdraw({ targetNumber: 1 }), scriptedFaces(1, 1, 1));
    expect(botch.reading.mishap).toBe('botch');
    expect(fastdrawOutcome(botch)).toBe('phase action lost');
  });

  it('needs a TN, and is a basic roll, not an advanced one', () => {
    expect(() => resolvePoolRoll(fastdraw({ targetNumber: null }), scriptedFaces(5, 5, 5))).toThrow(/A fastdraw is rolled against a target number: add `tn`/);
    expect(() => resolveAdvancedRoll({ ...fastdraw(), secondary: 2, mode: 'additive', halve: false }, scriptedFaces(5, 5, 5))).toThrow(/A fastdraw is a basic roll/);
    expect(() => resolvePoolRoll(pool({ action: 'sprint' as 'fastdraw' }), scriptedFaces(5, 5, 5))).toThrow(/The only action rolled this way is `fastdraw`/);
  });

  it('replays from its stored inputs and seed as the same roll', () => {
    const input = fastdraw({ dice: 4 });
    const rolled = resolvePoolRoll(input, seededRng('fastdraw-replay'));
    expect(rederive('d10', JSON.parse(JSON.stringify(input)), 'fastdraw-replay')).toMatchObject({ dice: poolDice(rolled), result: rolled });
  });
});
