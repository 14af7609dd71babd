import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src/errors.js';
import { seededRng } from '../../../../src/engine/rng.js';
import {
  resolveChallenge,
  resolveLinkedChallenge,
  successFaces,
  type ChallengeInput,
} from '../../../../src/engine/systems/tactalk/challenge.js';
import { scriptedD100 } from '../../../helpers/dice.js';

function input(overrides: Partial<ChallengeInput> & { level?: number; skillName?: string } = {}): ChallengeInput {
  const { level = 40, skillName = 'Climbing', ...rest } = overrides;
  return {
    skill: { name: skillName, level },
    archetypeModifiers: [],
    conditionModifiers: [],
    situationalModifier: 0,
    challengeLevel: 90,
    force: false,
    hidden: false,
    ...rest,
  };
}

describe('a challenge roll (RULES 1.2)', () => {
  it('adds the D100, the skill level, every archetype modifier, the conditions and the situational modifier', () => {
    const result = resolveChallenge(
      input({
        level: 40,
        archetypeModifiers: [{ name: 'Acuity', value: 10 }, { name: 'Dexterity', value: 5 }],
        conditionModifiers: [{ name: 'Wounded', value: -10 }],
        situationalModifier: 3,
        challengeLevel: 90,
      }),
      scriptedD100(48),
    );
    expect(result.outcome).toBe('rolled');
    if (result.outcome !== 'rolled') return;
    expect(result.base).toBe(48);
    expect(result.result).toBe(96);
    expect(result.d100).toEqual({ tens: 4, ones: 8, value: 48 });
    expect(result.success).toBe(true);
    expect(result.margin).toBe(6);
  });

  it('gives a tie to the Operator: a result equal to the CL succeeds with margin 0', () => {
    const result = resolveChallenge(input({ level: 40, challengeLevel: 88 }), scriptedD100(48));
    expect(result).toMatchObject({ outcome: 'rolled', result: 88, success: true, margin: 0 });
  });

  it('fails one below the CL, with a negative margin', () => {
    const result = resolveChallenge(input({ level: 40, challengeLevel: 89 }), scriptedD100(48));
    expect(result).toMatchObject({ outcome: 'rolled', result: 88, success: false, margin: -1 });
  });

  it('reads [0][0] as 100 in the sum', () => {
    const result = resolveChallenge(input({ level: 40, challengeLevel: 140 }), scriptedD100(100));
    expect(result).toMatchObject({ outcome: 'rolled', result: 140, success: true });
  });

  it('lets the sniper add his Acuity modifier (seed: Troy, Rifle Handling + Acuity)', () => {
    const result = resolveChallenge(
      input({ skillName: 'Rifle Handling', level: 45, archetypeModifiers: [{ name: 'Acuity', value: 15 }], challengeLevel: 120 }),
      scriptedD100(60),
    );
    expect(result).toMatchObject({ outcome: 'rolled', result: 120, success: true });
  });

  describe('certain outcomes are not rolled', () => {
    it('base + 1 = CL: success is certain, no dice are drawn', () => {
      const result = resolveChallenge(input({ level: 40, challengeLevel: 41 }), scriptedD100());
      expect(result).toMatchObject({ outcome: 'guaranteed', success: true, boundary: 41, successFaces: 100 });
    });

    it('base + 2 = CL: a roll of 1 would fail, so the roll is made', () => {
      const result = resolveChallenge(input({ level: 40, challengeLevel: 42 }), scriptedD100(1));
      expect(result).toMatchObject({ outcome: 'rolled', success: false, successFaces: 99 });
    });

    it('base + 100 = CL − 1: success is impossible, no dice are drawn', () => {
      const result = resolveChallenge(input({ level: 40, challengeLevel: 141 }), scriptedD100());
      expect(result).toMatchObject({ outcome: 'impossible', success: false, boundary: 140, successFaces: 0 });
    });

    it('base + 100 = CL: only [0][0] succeeds, so the roll is made', () => {
      const result = resolveChallenge(input({ level: 40, challengeLevel: 140 }), scriptedD100(99));
      expect(result).toMatchObject({ outcome: 'rolled', success: false, successFaces: 1 });
    });

    it('a CL of 0 is always met without a roll', () => {
      expect(resolveChallenge(input({ level: 0, challengeLevel: 0 }), scriptedD100())).toMatchObject({ outcome: 'guaranteed' });
    });

    it('a forced roll is rolled anyway (a Dispatcher for an NPC)', () => {
      const result = resolveChallenge(input({ level: 40, challengeLevel: 41, force: true }), scriptedD100(5));
      expect(result).toMatchObject({ outcome: 'rolled', result: 45, success: true, successFaces: 100 });
    });

    it('a hidden CL is rolled anyway, so certainty is not revealed', () => {
      const result = resolveChallenge(input({ level: 40, challengeLevel: 200, hidden: true }), scriptedD100(100));
      expect(result).toMatchObject({ outcome: 'rolled', result: 140, success: false, successFaces: 0 });
    });
  });

  describe('the exact chance of success', () => {
    it('counts the faces that succeed', () => {
      expect(successFaces(40, 90)).toBe(51); // 50..100
      expect(successFaces(40, 41)).toBe(100);
      expect(successFaces(40, 42)).toBe(99);
      expect(successFaces(40, 140)).toBe(1);
      expect(successFaces(40, 141)).toBe(0);
      expect(successFaces(-30, 0)).toBe(71); // 30..100
    });

    it('matches the frequency of success over many seeded rolls', () => {
      let successes = 0;
      const rng = seededRng('odds');
      for (let i = 0; i < 20_000; i++) if (resolveChallenge(input({ level: 40, challengeLevel: 90 }), rng).success) successes++;
      expect(successes / 20_000).toBeGreaterThan(0.49);
      expect(successes / 20_000).toBeLessThan(0.53);
    });
  });

  describe('range errors are user errors', () => {
    it.each([
      [{ challengeLevel: -1 }, /Challenge Level must be a whole number from 0 to 200/],
      [{ challengeLevel: 201 }, /Challenge Level must be a whole number from 0 to 200/],
      [{ level: 101 }, /skill level must be a whole number from 0 to 100/],
      [{ level: -5 }, /skill level must be a whole number from 0 to 100/],
      [{ situationalModifier: 1000 }, /modifier must be a whole number/],
    ])('%o is refused', (overrides, message) => {
      expect(() => resolveChallenge(input(overrides as Partial<ChallengeInput>), scriptedD100(50))).toThrow(UserError);
      expect(() => resolveChallenge(input(overrides as Partial<ChallengeInput>), scriptedD100(50))).toThrow(message);
    });

    it('accepts both ends of the ranges', () => {
      expect(() => resolveChallenge(input({ level: 0, challengeLevel: 200, force: true }), scriptedD100(1))).not.toThrow();
      expect(() => resolveChallenge(input({ level: 100, challengeLevel: 0, force: true }), scriptedD100(1))).not.toThrow();
    });
  });
});

describe('a linked challenge roll (RULES 1.3)', () => {
  it('resolves each part on its own, in order, and keeps a success (seed: Troy shoots, then crashes)', () => {
    const linked = resolveLinkedChallenge(
      [
        input({ skillName: 'Handgun Handling', level: 50, archetypeModifiers: [{ name: 'Acuity', value: 10 }], challengeLevel: 90 }),
        input({ skillName: 'Driving', level: 30, challengeLevel: 110 }),
      ],
      scriptedD100(35, 60),
    );
    expect(linked.results.map((result) => result.success)).toEqual([true, false]);
    expect(linked.succeeded).toBe(1);
    expect(linked.results[0]).toMatchObject({ result: 95 });
    expect(linked.results[1]).toMatchObject({ result: 90 });
  });

  it('does not roll a certain part, but rolls the others', () => {
    const linked = resolveLinkedChallenge([input({ level: 40, challengeLevel: 30 }), input({ level: 40, challengeLevel: 90 })], scriptedD100(70));
    expect(linked.results.map((result) => result.outcome)).toEqual(['guaranteed', 'rolled']);
    expect(linked.succeeded).toBe(2);
  });

  it('needs at least two parts', () => {
    expect(() => resolveLinkedChallenge([input()], scriptedD100(50))).toThrow(/at least two/);
  });

  it('rolls every part of a hidden linked roll, even a certain one, so certainty is not revealed', () => {
    const linked = resolveLinkedChallenge([input({ level: 40, challengeLevel: 30, hidden: true }), input({ hidden: true })], scriptedD100(1, 50));
    expect(linked.results.map((result) => result.outcome)).toEqual(['rolled', 'rolled']);
  });
});
