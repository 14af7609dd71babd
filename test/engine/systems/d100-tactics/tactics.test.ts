// RULES 2 (seed 001), line by line, with scripted dice: checks, damage ranges, the attack's six steps, Psi.
import { describe, expect, it } from 'vitest';
import {
  attackDice,
  equipmentUsable,
  reactionCheckInput,
  resolveAttack,
  resolveReaction,
  resolveSocial,
  socialCheckInput,
  withUnproficientEquipment,
  type SocialInput,
  resolveCheck,
  resolvePsi,
  rollDamage,
  type AttackInput,
} from '../../../../src/engine/systems/d100-tactics/tactics.js';
import { seededRng } from '../../../../src/engine/rng.js';
import { rederive } from '../../../../src/engine/replay.js';
import { scriptedFaces } from '../../../helpers/faces.js';
import { attackInput } from '../../../helpers/attack-input.js';

/** The two d10 faces (1-based) that make a d100 show `value`: 48 → tens 4, ones 8; 100 → [0][0]. */
function d100(value: number): number[] {
  if (value === 100) return [1, 1];
  return [Math.floor(value / 10) + 1, (value % 10) + 1];
}
const dice = (...parts: number[][]) => scriptedFaces(...parts.flat());

function attack(overrides: Partial<AttackInput> & { aim?: number; crit?: number; defense?: number; dodge?: number; armor?: number } = {}): AttackInput {
  const { aim = 70, crit = 0, defense = 0, dodge = 0, armor = 0, ...rest } = overrides;
  return attackInput({ name: 'Sectoid', sheetId: 1, defense, dodge, armor }, { attacker: { name: 'Sasha', aim, crit }, weaponBase: 5, weaponRange: 4, cover: 'none', ...rest });
}

describe('check: d100 ≤ attribute + modifiers', () => {
  const input = { attribute: { name: 'Aim', value: 60 }, modifiers: [{ name: 'modifier', value: 8 }] };
  it('shows the d100 as 2D10: [4][8] → 48, [0][0] → 100', () => {
    const rolled = resolveCheck(input, dice(d100(48)));
    expect(rolled.d100).toEqual({ tens: 4, ones: 8, value: 48 });
    expect(resolveCheck(input, dice(d100(100))).d100).toEqual({ tens: 0, ones: 0, value: 100 });
  });
  it('target = attribute + modifiers; equal succeeds, one over fails; the chance is the target clamped to 0–100', () => {
    expect(resolveCheck(input, dice(d100(68)))).toMatchObject({ target: 68, success: true, chance: 68 });
    expect(resolveCheck(input, dice(d100(69)))).toMatchObject({ target: 68, success: false });
    expect(resolveCheck({ attribute: { name: 'Tech', value: 150 }, modifiers: [] }, dice(d100(100)))).toMatchObject({ success: true, chance: 100 });
    expect(resolveCheck({ attribute: { name: 'Tech', value: 20 }, modifiers: [{ name: 'no proficiency', value: -50 }] }, dice(d100(1)))).toMatchObject({ target: -30, success: false, chance: 0 });
  });
});

describe('damage roll by damage range', () => {
  it.each([
    [2, 12, 6, [[1, 1], [6, 1], [7, 2], [12, 2]]],
    [3, 12, 4, [[1, 1], [4, 1], [5, 2], [12, 3]]],
    [4, 12, 3, [[1, 1], [3, 1], [4, 2], [12, 4]]],
    [5, 10, 2, [[1, 1], [2, 1], [3, 2], [10, 5]]],
    [6, 12, 2, [[1, 1], [2, 1], [11, 6], [12, 6]]],
  ])('range %i: d%i ÷ %i rounded up (an exact division is not rounded: the seed’s 3 ÷ 3 = 1)', (range, sides, divisor, cases) => {
    for (const [face, roll] of cases as number[][]) {
      const result = rollDamage({ base: 5, range }, scriptedFaces(face!));
      expect(result).toMatchObject({ sides, divisor, face, roll, total: 5 + roll! });
    }
  });
  it('range 2: the seed’s d10 ÷ 5 and d12 ÷ 6 give 1 or 2 at the same odds, so rolling d12 ÷ 6 loses nothing', () => {
    const d12 = Array.from({ length: 12 }, (_, face) => rollDamage({ base: 0, range: 2 }, scriptedFaces(face + 1)).roll);
    const d10 = Array.from({ length: 10 }, (_, face) => Math.ceil((face + 1) / 5));
    for (const roll of [1, 2]) expect(d12.filter((r) => r === roll).length / 12).toBe(d10.filter((r) => r === roll).length / 10);
  });
  it('refuses any other range with a clear error', () => {
    for (const range of [0, 1, 7, 12]) expect(() => rollDamage({ base: 5, range }, scriptedFaces())).toThrow(`There is no damage range ${range}: the damage table has ranges 2, 3, 4, 5 and 6.`);
  });
});

describe('attack, step by step', () => {
  it('1. defense = innate Defense + one cover: half +20, full +40', () => {
    expect(resolveAttack(attack({ defense: 10, cover: 'half' }), dice(d100(99))).defense).toBe(30);
    expect(resolveAttack(attack({ defense: 10, cover: 'full' }), dice(d100(99))).defense).toBe(50);
    expect(resolveAttack(attack({ defense: 10, cover: 'none' }), dice(d100(99))).defense).toBe(10);
  });
  it('1. flanked → no cover; melee → ranged cover does not apply', () => {
    const flanked = resolveAttack(attack({ cover: 'full', flanked: true }), dice(d100(99)));
    expect(flanked).toMatchObject({ defense: 0, cover: { asked: 'full', applied: 'none', why: 'flanked' } });
    const melee = resolveAttack(attack({ cover: 'half', melee: true }), dice(d100(99)));
    expect(melee).toMatchObject({ defense: 0, cover: { applied: 'none', why: 'melee' } });
  });
  it('2. target value = Aim − defense + melee 20, marked (ranged only) 15, others', () => {
    expect(resolveAttack(attack({ aim: 60, cover: 'half' }), dice(d100(99))).aim.target).toBe(40);
    expect(resolveAttack(attack({ aim: 60, melee: true, marked: true }), dice(d100(99))).aim.target).toBe(80);
    expect(resolveAttack(attack({ aim: 60, marked: true, modifier: -5 }), dice(d100(99))).aim.target).toBe(70);
  });
  it('3. a failed Aim check ends the attack: no other dice', () => {
    const rng = dice(d100(71));
    const result = resolveAttack(attack({ aim: 70, dodge: 30, crit: 20 }), rng);
    expect(result).toMatchObject({ hit: 'miss', rolledHit: null, dodge: null, crit: null, damage: null });
    expect(rng.remaining()).toBe(0);
  });
  it('3. Aim equal to the target value hits; neither Dodge nor Crit → a normal hit, no reaction dice', () => {
    const rng = dice(d100(70), [7]);
    const result = resolveAttack(attack({ aim: 70 }), rng);
    expect(result).toMatchObject({ hit: 'hit', dodge: null, crit: null, damage: { afterHit: 5 + 3, final: 8 } });
    expect(rng.remaining()).toBe(0);
  });
  it('4. only Dodge succeeds → graze: ceil(damage / 2)', () => {
    const result = resolveAttack(attack({ dodge: 30, crit: 10 }), dice(d100(10), d100(30), d100(11), [7]));
    expect(result).toMatchObject({ rolledHit: 'graze', hit: 'graze', damage: { roll: { total: 8 }, afterHit: 4, final: 4 } });
    // 5 + ceil(12/3)=4 → 9 → ceil(4.5) = 5
    expect(resolveAttack(attack({ dodge: 30 }), dice(d100(10), d100(1), [12])).damage).toMatchObject({ afterHit: 5 });
  });
  it('4. only Crit succeeds → critical: + the damage range', () => {
    const result = resolveAttack(attack({ dodge: 30, crit: 10 }), dice(d100(10), d100(31), d100(10), [7]));
    expect(result).toMatchObject({ hit: 'critical', damage: { roll: { total: 8 }, afterHit: 12, final: 12 } });
  });
  it('4. both succeed, or neither → a normal hit', () => {
    expect(resolveAttack(attack({ dodge: 30, crit: 10 }), dice(d100(10), d100(5), d100(5), [7])).hit).toBe('hit');
    expect(resolveAttack(attack({ dodge: 30, crit: 10 }), dice(d100(10), d100(50), d100(50), [7])).hit).toBe('hit');
  });
  it('4. flanked: +50 on the Crit check of an attacker with Crit (Crit 10 flanked checks at 60; 61 fails)', () => {
    const flanked = resolveAttack(attack({ crit: 10, flanked: true }), dice(d100(10), d100(60), [7]));
    expect(flanked).toMatchObject({ crit: { target: 60, success: true }, hit: 'critical' });
    expect(resolveAttack(attack({ crit: 10, flanked: true }), dice(d100(10), d100(61), [7]))).toMatchObject({ crit: { target: 60, success: false }, hit: 'hit' });
  });
  it('4. flanking grants Crit: a Crit-0 attacker flanking checks Crit at 50 (50 crits, 51 does not), as Dash grants a Dodge-0 target its Dodge', () => {
    expect(resolveAttack(attack({ crit: 0, flanked: true }), dice(d100(10), d100(50), [7]))).toMatchObject({
      crit: { target: 50, success: true, input: { attribute: { name: 'Crit', value: 0 }, modifiers: [{ name: 'flanked', value: 50 }] } },
      hit: 'critical',
    });
    expect(resolveAttack(attack({ crit: 0, flanked: true }), dice(d100(10), d100(51), [7]))).toMatchObject({ crit: { target: 50, success: false }, hit: 'hit' });
    expect(resolveAttack(attack({ crit: -5, flanked: true }), dice(d100(10), d100(45), [7]))).toMatchObject({ crit: { target: 45, success: true }, hit: 'critical' });
    // No Crit check when even flanking leaves it at 0 or below, nor for Crit 0 not flanking.
    for (const input of [attack({ crit: -50, flanked: true }), attack({ crit: 0 })]) {
      const rng = dice(d100(10), [7]);
      expect(resolveAttack(input, rng)).toMatchObject({ crit: null, hit: 'hit' });
      expect(rng.remaining()).toBe(0);
    }
  });
  it('4. house rule flanking_needs_own_crit: a Crit-0 (or below) attacker flanking makes no Crit check, never a critical; Crit 10 still checks at 60', () => {
    for (const crit of [0, -5]) {
      const rng = dice(d100(10), [7]);
      expect(resolveAttack(attack({ crit, flanked: true, flankingNeedsOwnCrit: true }), rng)).toMatchObject({ crit: null, rolledHit: 'hit', hit: 'hit' });
      expect(rng.remaining()).toBe(0);
    }
    expect(resolveAttack(attack({ crit: 10, flanked: true, flankingNeedsOwnCrit: true }), dice(d100(10), d100(60), [7]))).toMatchObject({ crit: { target: 60, success: true }, hit: 'critical' });
    // Over many seeds, with and without a Dodge check before it: without the house rule about half of these hits
    // are critical.
    let critical = 0;
    for (const dodge of [0, 30]) {
      for (let seed = 0; seed < 500; seed++) {
        const input = attack({ aim: 200, crit: 0, dodge, flanked: true, cover: 'full' });
        const result = resolveAttack({ ...input, flankingNeedsOwnCrit: true }, seededRng(`flank-${seed}`));
        expect(result.crit).toBeNull();
        expect(result.rolledHit).not.toBe('critical');
        if (resolveAttack(input, seededRng(`flank-${seed}`)).rolledHit === 'critical') critical++;
      }
    }
    expect(critical).toBeGreaterThan(0);
  });
  it('4. the Crit bonus (situation, equipment: the seed’s laser sight) adds to the sheet’s Crit; flanked adds 50 on top', () => {
    const sighted = resolveAttack(attack({ crit: 0, critBonus: 10, flanked: true }), dice(d100(10), d100(60), [7]));
    expect(sighted.crit).toMatchObject({ target: 60, success: true, input: { attribute: { name: 'Crit', value: 0 }, modifiers: [{ name: 'Crit bonus', value: 10 }, { name: 'flanked', value: 50 }] } });
    expect(sighted.hit).toBe('critical');
    // A bonus that takes Crit to 0: flanking still grants its 50; under the house rule, no Crit means no check.
    expect(resolveAttack(attack({ crit: 20, critBonus: -20, flanked: true }), dice(d100(10), d100(50), [7]))).toMatchObject({ crit: { target: 50, success: true }, hit: 'critical' });
    const rng = dice(d100(10), [7]);
    expect(resolveAttack(attack({ crit: 20, critBonus: -20, flanked: true, flankingNeedsOwnCrit: true }), rng)).toMatchObject({ crit: null, hit: 'hit' });
    expect(rng.remaining()).toBe(0);
  });
  it('4. Dash: a dashing target has +30 Dodge against the reaction attack (Dodge 25 checks at 55)', () => {
    const result = resolveAttack(attack({ dodge: 25, dashing: true }), dice(d100(10), d100(55), [7]));
    expect(result.dodge).toMatchObject({ target: 55, success: true, input: { modifiers: [{ name: 'dashing', value: 30 }] } });
    expect(result).toMatchObject({ hit: 'graze', damage: { afterHit: 4 } });
    expect(resolveAttack(attack({ dodge: 25, dashing: true }), dice(d100(10), d100(56), [7])).dodge).toMatchObject({ target: 55, success: false });
  });
  it('4. Dash grants Dodge: a target with Dodge 0 that dashes has Dodge 30 and checks it; the Dodge bonus adds too', () => {
    expect(resolveAttack(attack({ dodge: 0, dashing: true }), dice(d100(10), d100(30), [7]))).toMatchObject({ dodge: { target: 30, success: true }, hit: 'graze' });
    expect(resolveAttack(attack({ dodge: 0, dodgeBonus: 10, dashing: true }), dice(d100(10), d100(41), [7])).dodge).toMatchObject({ target: 40, success: false });
    const rng = dice(d100(10), [7]);
    expect(resolveAttack(attack({ dodge: 10, dodgeBonus: -10 }), rng)).toMatchObject({ dodge: null, hit: 'hit' });
    expect(rng.remaining()).toBe(0);
  });
  it('4. Dash and flanking together: dashing Dodge and flanked Crit both succeed → a normal hit', () => {
    expect(resolveAttack(attack({ crit: 5, dodge: 0, dashing: true, flanked: true }), dice(d100(10), d100(30), d100(55), [7]))).toMatchObject({ dodge: { target: 30, success: true }, crit: { target: 55, success: true }, hit: 'hit' });
  });
  it('an attack stored before issue 12 (no Dash, no bonuses) replays under the reading it was rolled with', () => {
    const { critBonus: _c, dodgeBonus: _d, dashing: _x, flankingNeedsOwnCrit: _f, ...stored } = attack({ aim: 200, crit: 0, flanked: true });
    for (const seed of ['old-1', 'old-2', 'old-3', 'old-4']) {
      const replayed = rederive('attack', JSON.parse(JSON.stringify(stored)), seed);
      expect(replayed.kind === 'attack' && replayed.result.crit).toMatchObject({ target: 50 });
      expect(replayed.dice).toEqual(attackDice(resolveAttack(attack({ aim: 200, crit: 0, flanked: true, flankingNeedsOwnCrit: false }), seededRng(seed))));
    }
  });
  it('an attack stored from issue 12 until the flanking reading was stored (Dash, no reading) replays as rolled: a Crit-0 flanker made no Crit check', () => {
    const { flankingNeedsOwnCrit: _f, ...stored } = attack({ aim: 200, crit: 0, flanked: true });
    for (const seed of ['old-1', 'old-2', 'old-3', 'old-4']) {
      const replayed = rederive('attack', JSON.parse(JSON.stringify(stored)), seed);
      expect(replayed.kind === 'attack' && replayed.result.crit).toBeNull();
      expect(replayed.dice).toEqual(attackDice(resolveAttack(attack({ aim: 200, crit: 0, flanked: true, flankingNeedsOwnCrit: true }), seededRng(seed))));
    }
    // Made now, the same attack checks Crit at 50; stored with its reading, it replays so.
    const now = attack({ aim: 200, crit: 0, flanked: true });
    expect(resolveAttack(now, seededRng('old-1')).crit).toMatchObject({ target: 50 });
    for (const flankingNeedsOwnCrit of [false, true]) {
      const input = { ...now, flankingNeedsOwnCrit };
      expect(rederive('attack', JSON.parse(JSON.stringify(input)), 'old-1').dice).toEqual(attackDice(resolveAttack(input, seededRng('old-1'))));
    }
  });
  it('5. a critical adds the damage range, which is the highest roll the range can make (the seed: "a maximum possible roll")', () => {
    for (const range of [2, 3, 4, 5, 6]) {
      const sides = range === 5 ? 10 : 12;
      const highest = Math.max(...Array.from({ length: sides }, (_, face) => rollDamage({ base: 0, range }, scriptedFaces(face + 1)).roll));
      expect(highest).toBe(range);
      const critical = resolveAttack(attack({ crit: 10, weaponBase: 3, weaponRange: range }), dice(d100(10), d100(1), [1]));
      expect(critical.damage).toMatchObject({ roll: { total: 4 }, afterHit: 4 + range });
    }
  });
  it('5. armor is subtracted after the hit type, minimum 1', () => {
    expect(resolveAttack(attack({ armor: 2 }), dice(d100(10), [7])).damage).toMatchObject({ afterHit: 8, armor: 2, final: 6 });
    expect(resolveAttack(attack({ armor: 20 }), dice(d100(10), [7])).damage).toMatchObject({ final: 1 });
    // critical then armor: 8 + 4 = 12 − 3 = 9
    expect(resolveAttack(attack({ crit: 10, armor: 3 }), dice(d100(10), d100(1), [7])).damage).toMatchObject({ afterHit: 12, final: 9 });
    // graze then armor: ceil(8/2) = 4 − 10 → 1
    expect(resolveAttack(attack({ dodge: 10, armor: 10 }), dice(d100(10), d100(1), [7])).damage).toMatchObject({ afterHit: 4, final: 1 });
  });
  it('6. without proficiency: hits and crits become grazes, grazes become misses (no damage die)', () => {
    const hit = resolveAttack(attack({ proficient: false }), dice(d100(10), [7]));
    expect(hit).toMatchObject({ rolledHit: 'hit', hit: 'graze', damage: { afterHit: 4 } });
    const crit = resolveAttack(attack({ proficient: false, crit: 10 }), dice(d100(10), d100(1), [7]));
    expect(crit).toMatchObject({ rolledHit: 'critical', hit: 'graze', damage: { afterHit: 4 } });
    const rng = dice(d100(10), d100(1));
    const graze = resolveAttack(attack({ proficient: false, dodge: 10 }), rng);
    expect(graze).toMatchObject({ rolledHit: 'graze', hit: 'miss', damage: null });
    expect(rng.remaining()).toBe(0);
  });
  it('stores its dice and replays them identically from the seed', () => {
    const input = attack({ dodge: 40, crit: 30, armor: 1, cover: 'half' });
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const result = resolveAttack(input, seededRng(seed));
      const replayed = rederive('attack', JSON.parse(JSON.stringify(input)), seed);
      expect(replayed.dice).toEqual(attackDice(result));
      expect(replayed.result).toEqual(result);
    }
  });
});

describe('Psi check', () => {
  it('difficulty (default 0) + Psi', () => {
    expect(resolvePsi({ psi: 70, difficulty: 0, target: null, collar: false }, dice(d100(70)))).toMatchObject({ check: { target: 70, success: true } });
    expect(resolvePsi({ psi: 70, difficulty: -50, target: null, collar: false }, dice(d100(21)))).toMatchObject({ check: { target: 20, success: false } });
    expect(resolvePsi({ psi: 70, difficulty: 20, target: null, collar: false }, dice(d100(90)))).toMatchObject({ check: { target: 90, success: true } });
  });
  it('contested: − target Will + 50 (a Will of 50 changes nothing, above 50 resists, below 50 helps the psionic)', () => {
    expect(resolvePsi({ psi: 70, difficulty: 0, target: { name: 'Mike', will: 50 }, collar: false }, dice(d100(1))).check.target).toBe(70);
    expect(resolvePsi({ psi: 70, difficulty: 0, target: { name: 'Mike', will: 30 }, collar: false }, dice(d100(1))).check.target).toBe(90);
    expect(resolvePsi({ psi: 70, difficulty: -10, target: { name: 'Mike', will: 65 }, collar: false }, dice(d100(1))).check.target).toBe(45);
  });
  it('a worn collar −105: even peak human Psi 100 cannot succeed', () => {
    expect(resolvePsi({ psi: 100, difficulty: 0, target: null, collar: true }, dice(d100(1)))).toMatchObject({ check: { target: -5, success: false, chance: 0 } });
  });
  it('refuses a difficulty outside +20 … −50', () => {
    expect(() => resolvePsi({ psi: 70, difficulty: 21, target: null, collar: false }, dice(d100(1)))).toThrow('The psionic difficulty must be a whole number from -50 to 20');
    expect(() => resolvePsi({ psi: 70, difficulty: -51, target: null, collar: false }, dice(d100(1)))).toThrow('from -50 to 20');
  });
});

describe('social Will penalties', () => {
  const social = (overrides: Partial<SocialInput> = {}): SocialInput => ({ will: 60, speciesDistance: 0, alien: false, psionicListener: false, speakerPsionic: false, modifier: 0, ...overrides });
  it('−5 per 25 % species distance', () => {
    expect(socialCheckInput(social()).modifiers).toEqual([]);
    for (const [distance, penalty] of [[25, -5], [50, -10], [75, -15], [100, -20]] as const) {
      expect(socialCheckInput(social({ speciesDistance: distance })).modifiers).toEqual([{ name: `species distance ${distance}%`, value: penalty }]);
    }
  });
  it('−5 extreme alien features', () => {
    expect(socialCheckInput(social({ alien: true })).modifiers).toEqual([{ name: 'extreme alien features', value: -5 }]);
  });
  it('−5 strong psionics, unless the speaker is psionic', () => {
    expect(socialCheckInput(social({ psionicListener: true })).modifiers).toEqual([{ name: 'strong psionics', value: -5 }]);
    expect(socialCheckInput(social({ psionicListener: true, speakerPsionic: true })).modifiers).toEqual([]);
    expect(resolveSocial(social({ psionicListener: true, speakerPsionic: true }), dice(d100(60)))).toMatchObject({ psionicsWaived: true, check: { target: 60, success: true } });
    expect(resolveSocial(social({ speakerPsionic: true }), dice(d100(60))).psionicsWaived).toBe(false);
  });
  it('a gatekeeper (100 %, alien, psionic) is −30 in all; the modifier comes on top; equal succeeds', () => {
    const gatekeeper = social({ speciesDistance: 100, alien: true, psionicListener: true, modifier: 10 });
    expect(resolveSocial(gatekeeper, dice(d100(40)))).toMatchObject({ check: { target: 40, success: true } });
    expect(resolveSocial(gatekeeper, dice(d100(41)))).toMatchObject({ check: { target: 40, success: false } });
  });
  it('refuses a species distance that is not a step of 25 % from 0 to 100', () => {
    expect(() => resolveSocial(social({ speciesDistance: 30 }), dice(d100(1)))).toThrow('The species distance is 0, 25, 50, 75 or 100 %; 30 is not.');
    expect(() => resolveSocial(social({ speciesDistance: 125 }), dice(d100(1)))).toThrow('125 is not');
  });
  it('replays from its seed', () => {
    const seed = 'social-1';
    const input = social({ speciesDistance: 50, alien: true });
    expect(rederive('social', JSON.parse(JSON.stringify(input)), seed)).toMatchObject({ kind: 'social', result: resolveSocial(input, seededRng(seed)) });
  });
});

describe('Tech with equipment without proficiency', () => {
  const tech = { attribute: { name: 'Tech', value: 70 }, modifiers: [{ name: 'modifier', value: -10 }] };
  it('−50 on the target', () => {
    const input = withUnproficientEquipment(tech);
    expect(input.modifiers).toEqual([{ name: 'modifier', value: -10 }, { name: 'equipment without proficiency', value: -50 }]);
    expect(resolveCheck(input, dice(d100(10)))).toMatchObject({ target: 10, success: true });
    expect(resolveCheck(input, dice(d100(11)))).toMatchObject({ target: 10, success: false });
  });
  it('a target below 0 means the equipment cannot be used; 0 can be tried', () => {
    expect(equipmentUsable(withUnproficientEquipment(tech))).toBe(true);
    expect(equipmentUsable(withUnproficientEquipment({ attribute: { name: 'Tech', value: 50 }, modifiers: [] }))).toBe(true);
    expect(equipmentUsable(withUnproficientEquipment({ attribute: { name: 'Tech', value: 49 }, modifiers: [] }))).toBe(false);
  });
  it('only equipment used without proficiency can be unusable: any other check below 0 is rolled and fails at 0 %', () => {
    const plain = [
      { attribute: { name: 'Aim', value: 70 }, modifiers: [{ name: 'modifier', value: -71 }] },
      { attribute: { name: 'Will', value: -300 }, modifiers: [] },
      { attribute: { name: 'Tech', value: 20 }, modifiers: [{ name: 'modifier', value: -100 }] },
      { attribute: { name: 'Dodge', value: -1 }, modifiers: [] },
    ];
    for (const input of plain) {
      expect(equipmentUsable(input), input.attribute.name).toBe(true);
      // Even the lowest d100, a 1, fails.
      expect(resolveCheck(input, dice(d100(1)))).toMatchObject({ success: false, chance: 0 });
    }
  });
});

describe('Defense against hazards and Dodge reactions start at +50', () => {
  it('Defense + 50, then the situation modifier', () => {
    expect(reactionCheckInput({ kind: 'defense', value: 10, modifier: -20 })).toEqual({ attribute: { name: 'Defense', value: 10 }, modifiers: [{ name: 'hazard check', value: 50 }, { name: 'modifier', value: -20 }] });
    expect(resolveReaction({ kind: 'defense', value: 10, modifier: -20 }, dice(d100(40)))).toMatchObject({ check: { target: 40, success: true } });
    expect(resolveReaction({ kind: 'defense', value: 0, modifier: 0 }, dice(d100(51)))).toMatchObject({ check: { target: 50, success: false } });
  });
  it('Dodge + 50, then the situation modifier', () => {
    expect(reactionCheckInput({ kind: 'dodge', value: 25, modifier: 0 })).toEqual({ attribute: { name: 'Dodge', value: 25 }, modifiers: [{ name: 'reaction check', value: 50 }] });
    expect(resolveReaction({ kind: 'dodge', value: 25, modifier: 10 }, dice(d100(85)))).toMatchObject({ check: { target: 85, success: true } });
  });
  it('refuses another kind; replays from its seed', () => {
    expect(() => resolveReaction({ kind: 'aim' as 'dodge', value: 25, modifier: 0 }, dice(d100(1)))).toThrow('defense');
    const input = { kind: 'dodge', value: 25, modifier: -5 } as const;
    expect(rederive('reaction', input, 'r-1')).toMatchObject({ kind: 'reaction', result: resolveReaction(input, seededRng('r-1')) });
  });
});
