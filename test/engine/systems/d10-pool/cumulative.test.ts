import { describe, expect, it } from 'vitest';
import { rederive } from '../../../../src/engine/replay.js';
import { seededRng } from '../../../../src/engine/rng.js';
import {
  nextStepInput,
  resolveCumulativeStep,
  validateCumulativeSettings,
  type CumulativeSettings,
  type CumulativeStepInput,
  type CumulativeStepResult,
} from '../../../../src/engine/systems/d10-pool/cumulative.js';
import { scriptedFaces } from '../../../helpers/faces.js';

function first(overrides: Partial<CumulativeSettings> = {}): CumulativeStepInput {
  return {
    dice: 2,
    targetNumber: 8,
    modifier: 0,
    calm: false,
    target: null,
    count: null,
    maxRolls: 5,
    ...overrides,
    cumulativeId: 'abcdefgh',
    step: 1,
    before: { total: 0, successes: 0 },
  };
}

/** Rolls step after step, each on the two faces given. */
function run(settings: Partial<CumulativeSettings>, ...rolls: Array<[number, number]>): CumulativeStepResult[] {
  const steps: CumulativeStepResult[] = [];
  let input = first(settings);
  for (const faces of rolls) {
    const step = resolveCumulativeStep(input, scriptedFaces(...faces));
    steps.push(step);
    if (step.end) break;
    input = nextStepInput(step);
  }
  return steps;
}

describe('cumulative rolls (RULES 5, advanced: cumulative)', () => {
  it('adds the results toward a high total and ends when it is reached', () => {
    const steps = run({ target: 25 }, [2, 8], [9, 9], [6, 3], [5, 5]);
    expect(steps.map((step) => step.after.total)).toEqual([8, 18, 24, 30]);
    expect(steps.map((step) => step.end)).toEqual([null, null, null, 'target reached']);
  });

  it('counts successes toward a count; a solid success counts as two; a partial success counts nothing', () => {
    // TN 8: 9 is a success, 7 a partial success, 10 + 10 → 11 a success (not above 12).
    const steps = run({ count: 3, modifier: 0 }, [9, 2], [7, 1], [10, 10]);
    expect(steps.map((step) => step.roll.verdict)).toEqual(['success', 'partial success', 'success']);
    expect(steps.map((step) => step.after.successes)).toEqual([1, 1, 2]);
    const solid = run({ count: 3, targetNumber: 6 }, [10, 10], [8, 2]);
    expect(solid[0]!.roll.verdict).toBe('solid success'); // 11 > 9
    expect(solid.map((step) => step.gained.successes)).toEqual([2, 1]);
    expect(solid[1]!.end).toBe('count reached');
  });

  it('a majority of 1s adds nothing; a botch adds nothing and ends the roll', () => {
    const stepsWithThree: CumulativeStepResult[] = [];
    let input = first({ dice: 3, target: 40 });
    for (const faces of [[1, 1, 9], [1, 1, 1]]) {
      const step = resolveCumulativeStep(input, scriptedFaces(...faces));
      stepsWithThree.push(step);
      if (step.end) break;
      input = nextStepInput(step);
    }
    expect(stepsWithThree.map((step) => step.roll.reading.mishap)).toEqual(['automatic failure', 'botch']);
    expect(stepsWithThree.map((step) => step.gained.total)).toEqual([0, 0]);
    expect(stepsWithThree[1]!.end).toBe('botched');
  });

  it('calm: 1s are read as they are and nothing botches', () => {
    const steps = run({ target: 40, calm: true }, [1, 1], [1, 1]);
    expect(steps.map((step) => step.gained.total)).toEqual([2, 2]);
    expect(steps.every((step) => step.end === null)).toBe(true);
  });

  it('fails when the last allowed roll is made short of the goal', () => {
    const steps = run({ target: 100, maxRolls: 3 }, [5, 2], [5, 2], [5, 2]);
    expect(steps.map((step) => step.end)).toEqual([null, null, 'out of rolls']);
  });

  it('a negative result adds nothing rather than taking progress away', () => {
    const steps = run({ target: 50, modifier: -5 }, [3, 2], [9, 2]);
    expect(steps.map((step) => step.gained.total)).toEqual([0, 4]);
  });

  it('with both goals, the first one reached ends the roll', () => {
    const steps = run({ target: 100, count: 1 }, [9, 2]);
    expect(steps[0]!.end).toBe('count reached');
  });

  it('refuses a roll without a goal, counting without a TN, and a step past the last roll', () => {
    expect(() => validateCumulativeSettings(first())).toThrow(/needs a goal/);
    expect(() => validateCumulativeSettings(first({ count: 2, targetNumber: null }))).toThrow(/add `tn`/);
    expect(() => validateCumulativeSettings(first({ target: 1001 }))).toThrow(/target total must be a whole number from 1 to 1000/);
    expect(() => validateCumulativeSettings(first({ target: 10, maxRolls: 26 }))).toThrow(/1 to 25/);
    expect(() => resolveCumulativeStep({ ...first({ target: 10 }), step: 6 }, scriptedFaces(1, 2))).toThrow(/step must be/);
    const over = run({ target: 5 }, [9, 2]);
    expect(() => nextStepInput(over[0]!)).toThrow(/is over \(target reached\)/);
  });

  it('each step replays on its own from its seed, the running state being in its inputs', () => {
    const one = resolveCumulativeStep(first({ target: 40, dice: 4 }), seededRng('step-1'));
    const two = resolveCumulativeStep(nextStepInput(one), seededRng('step-2'));
    const replayed = rederive('d10-extended', JSON.parse(JSON.stringify(two.input)), 'step-2');
    expect(replayed.dice).toEqual(two.roll.reading.faces);
    expect(replayed.result).toEqual(two);
  });
});

describe('situations in a cumulative roll', () => {
  it('take one die from every roll: 3 dice, one situation, each roll throws 2', () => {
    const steps = run({ dice: 3, situations: ['in the dark'], target: 100 }, [4, 6], [9, 9]);
    expect(steps.map((step) => step.roll.reading.faces)).toEqual([[4, 6], [9, 9]]);
    expect(steps[1]!.after.total).toBe(6 + 10);
    expect(steps[1]!.input.situations).toEqual(['in the dark']);
  });

  it('a step stored before situations existed replays as it was rolled', () => {
    const stored = JSON.parse(JSON.stringify(first({ target: 100 }))) as CumulativeStepInput;
    expect('situations' in stored).toBe(false);
    const step = resolveCumulativeStep(stored, seededRng('old-step'));
    expect(rederive('d10-extended', stored, 'old-step')).toMatchObject({ dice: step.roll.reading.faces, result: step });
    expect(step.roll.reading.faces).toHaveLength(2);
  });

  it('refuses a situation named twice before anything is rolled', () => {
    expect(() => validateCumulativeSettings({ ...first({ target: 10 }), situations: ['dark', 'dark'] })).toThrow(/named twice/);
  });
});
