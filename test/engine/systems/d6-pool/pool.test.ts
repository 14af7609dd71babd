// d6 pools (RULES 4, seed 003): every rule line with scripted dice, the odds against an enumeration, replays.
import { describe, expect, it } from 'vitest';
import { rederive } from '../../../../src/engine/replay.js';
import { seededRng } from '../../../../src/engine/rng.js';
import {
  BROKEN,
  D6_SKILLS,
  OPPOSED_SKILL,
  PUSH_CONDITIONS,
  TIE_BREAKS_MAX,
  checkedStakes,
  composePool,
  d6Faces,
  difficultyModifier,
  findD6Skill,
  helpModifier,
  opposedOutcome,
  opposedResult,
  opposedStanding,
  pushCosts,
  resolveD6Pool,
  resolvePush,
  resolveTieBreak,
  skillExtras,
  stealthModifiers,
  successChance,
  tally,
  tieBreakFaces,
  type D6PoolInput,
} from '../../../../src/engine/systems/d6-pool/pool.js';
import { allFaces, scriptedFaces } from '../../../helpers/faces.js';

function input(overrides: Partial<D6PoolInput> = {}): D6PoolInput {
  return { skill: 'Force', attribute: 'STR', skillLevel: 2, attributeValue: 3, gear: 1, modifiers: [], sheet: null, ...overrides };
}

describe('the thirteen skills and their attributes', () => {
  it('ties each core skill to the attribute the seed names', () => {
    const byAttribute = (attribute: string) => D6_SKILLS.filter((skill) => skill.attribute === attribute).map((skill) => skill.name);
    expect(D6_SKILLS).toHaveLength(13);
    expect(byAttribute('STR')).toEqual(['Force', 'Melee', 'Stamina']);
    expect(byAttribute('AGI')).toEqual(['Marksmanship', 'Mobility', 'Stealth']);
    expect(byAttribute('WIT')).toEqual(['Crafting', 'Defiance', 'Observation', 'Survival']);
    expect(byAttribute('EMP')).toEqual(['Medical', 'Insight', 'Persuasion']);
    expect(findD6Skill('  persuasion ')).toEqual({ name: 'Persuasion', attribute: 'EMP' });
    expect(findD6Skill('Piloting')).toBeUndefined();
  });
});

describe('building the pool', () => {
  it('is skill level + attribute + gear dice, rolled skill first, then gear, then attribute', () => {
    const result = resolveD6Pool(input(), scriptedFaces(6, 3, 1, 4, 5, 6));
    expect(result.pool).toEqual({ skill: 2, gear: 1, attribute: 3 });
    expect(result.dice.map((die) => die.source)).toEqual(['skill', 'skill', 'gear', 'attribute', 'attribute', 'attribute']);
    expect(d6Faces(result.dice)).toEqual([6, 3, 1, 4, 5, 6]);
  });

  it('an unranked skill (no dots) rolls the attribute alone; gear gives extra base dice', () => {
    expect(resolveD6Pool(input({ skillLevel: 0, gear: 0 }), scriptedFaces(2, 2, 2)).pool).toEqual({ skill: 0, gear: 0, attribute: 3 });
    expect(resolveD6Pool(input({ skillLevel: 0, gear: 2 }), scriptedFaces(2, 2, 2, 2, 2)).pool).toEqual({ skill: 0, gear: 2, attribute: 3 });
  });

  it('difficulty: trivial +3, simple +2, easy +1, average 0, demanding −1, hard −2, formidable −3', () => {
    const values = ['trivial', 'simple', 'easy', 'average', 'demanding', 'hard', 'formidable'].map((name) => difficultyModifier(name).value);
    expect(values).toEqual([3, 2, 1, 0, -1, -2, -3]);
    expect(() => difficultyModifier('impossible')).toThrow(/Unknown difficulty/);
  });

  it('help is +1 per helper, at most three helpers (+3)', () => {
    expect(helpModifier(1).value).toBe(1);
    expect(helpModifier(3).value).toBe(3);
    expect(() => helpModifier(4)).toThrow(/At most 3 people can help/);
  });

  it('a +1 modifier rolls one extra base die; several modifiers are cumulative', () => {
    const result = resolveD6Pool(input({ modifiers: [{ name: 'Easy', value: 1 }, { name: 'help (2)', value: 2 }, { name: 'Angry (condition)', value: -1 }] }), scriptedFaces(...Array(8).fill(3)));
    expect(result.modifier).toBe(2);
    expect(result.dice).toHaveLength(8);
    expect(result.pool).toEqual({ skill: 4, gear: 1, attribute: 3 });
  });

  it('negative modifiers remove skill dice first, then gear, then attribute', () => {
    const base = { skill: 2, gear: 2, attribute: 3 };
    expect(composePool(base, -1)).toEqual({ skill: 1, gear: 2, attribute: 3 });
    expect(composePool(base, -2)).toEqual({ skill: 0, gear: 2, attribute: 3 });
    expect(composePool(base, -3)).toEqual({ skill: 0, gear: 1, attribute: 3 });
    expect(composePool(base, -4)).toEqual({ skill: 0, gear: 0, attribute: 3 });
    expect(composePool(base, -6)).toEqual({ skill: 0, gear: 0, attribute: 1 });
    expect(composePool(base, -9)).toEqual({ skill: 0, gear: 0, attribute: 0 });
  });

  it('an empty pool cannot succeed: nothing is rolled', () => {
    const rng = scriptedFaces();
    const result = resolveD6Pool(input({ skillLevel: 1, gear: 0, attributeValue: 2, modifiers: [{ name: 'Formidable', value: -3 }] }), rng);
    expect(result).toMatchObject({ empty: true, dice: [], successes: 0, success: false });
    expect(rng.remaining()).toBe(0);
  });

  it('refuses a d6 skill above 5, and limits on gear and modifiers', () => {
    expect(() => resolveD6Pool(input({ skillLevel: 40 }), seededRng('x'))).toThrow(/d6 skills are 0–5/);
    expect(() => resolveD6Pool(input({ gear: 11 }), seededRng('x'))).toThrow(/Gear dice/);
  });
});

describe('reading the dice', () => {
  it('each 6 is a success; more than one may trigger extras', () => {
    expect(resolveD6Pool(input({ skillLevel: 0, gear: 0 }), scriptedFaces(6, 6, 4))).toMatchObject({ sixes: 2, banes: 0, successes: 2, success: true });
  });

  it('each 1 is a bane that removes one success: net = max(0, sixes − ones)', () => {
    expect(tally([6, 6, 1])).toEqual({ sixes: 2, banes: 1, successes: 1 });
    expect(tally([6, 1, 1])).toEqual({ sixes: 1, banes: 2, successes: 0 });
    expect(tally([1, 1, 3])).toEqual({ sixes: 0, banes: 2, successes: 0 });
  });

  it('no successes is a failure', () => {
    expect(resolveD6Pool(input({ skillLevel: 0, gear: 0 }), scriptedFaces(5, 4, 2))).toMatchObject({ successes: 0, success: false });
    expect(resolveD6Pool(input({ skillLevel: 0, gear: 0 }), scriptedFaces(6, 1, 2))).toMatchObject({ successes: 0, success: false });
  });
});

describe('pushing', () => {
  it('re-rolls every die showing neither 1 nor 6, in order; banes and sixes stay', () => {
    const dice = resolveD6Pool(input(), scriptedFaces(6, 3, 1, 4, 5, 6)).dice;
    const rng = scriptedFaces(6, 2, 1);
    const pushed = resolvePush({ rollId: 'abcdefgh', attribute: 'STR', dice }, rng);
    expect(rng.remaining()).toBe(0);
    expect(d6Faces(pushed.dice)).toEqual([6, 6, 1, 2, 1, 6]);
    expect(pushed.dice.map((die) => die.rerolled)).toEqual([false, true, false, true, true, false]);
    expect(pushed.dice.map((die) => die.before)).toEqual([6, 3, 1, 4, 5, 6]);
    expect(pushed.dice.map((die) => die.source)).toEqual(dice.map((die) => die.source));
    expect(pushed).toMatchObject({ rerolled: 3, sixes: 3, banes: 2, successes: 1, success: true });
  });

  it('the pushed result stands, even when it is worse; every die counts after the push', () => {
    const dice = resolveD6Pool(input({ skillLevel: 0, gear: 0 }), scriptedFaces(6, 6, 3)).dice;
    const pushed = resolvePush({ rollId: 'abcdefgh', attribute: 'STR', dice }, scriptedFaces(1));
    expect(pushed).toMatchObject({ sixes: 2, banes: 1, successes: 1 });
  });

  it('never re-rolls a 1 or a 6, whatever the faces (all 6^4 rolls of four dice)', () => {
    for (const faces of allFaces(4, 6)) {
      const dice = faces.map((face) => ({ source: 'skill' as const, face }));
      const pushed = resolvePush({ rollId: 'abcdefgh', attribute: 'STR', dice }, seededRng(faces.join('')));
      pushed.dice.forEach((die, index) => {
        if (faces[index] === 1 || faces[index] === 6) expect(die).toMatchObject({ face: faces[index], rerolled: false });
        else expect(die.rerolled).toBe(true);
      });
    }
  });
});

describe('the cost of pushing', () => {
  it('a push costs a condition the character does not suffer yet: Exhausted, Angry, Frightened (the seed) and ours', () => {
    expect(pushCosts([])).toEqual([...PUSH_CONDITIONS]);
    expect(PUSH_CONDITIONS.slice(0, 3)).toEqual(['Exhausted', 'Angry', 'Frightened']);
    expect(pushCosts(['angry', 'Wounded'])).toEqual(['Exhausted', 'Frightened', 'Battered', 'Sick', 'Confused']);
  });

  it('once every condition of the list is suffered, a push costs Broken; once Broken too, nothing is left: no push', () => {
    expect(pushCosts([...PUSH_CONDITIONS])).toEqual([BROKEN]);
    expect(pushCosts([...PUSH_CONDITIONS, 'broken'])).toEqual([]);
    // Broken on its own (e.g. set by hand) does not stop the list's conditions.
    expect(pushCosts([BROKEN])).toEqual([...PUSH_CONDITIONS]);
  });
});

describe('the skills\' own rules', () => {
  it('Stealth: +1 for each of blend in, dark, crowded, distracted; −1 for stand out, no cover; named once each', () => {
    expect(stealthModifiers('Stealth', 'dark, Crowded ,distracted, blend in')).toEqual([
      { name: 'dark', value: 1 },
      { name: 'crowded', value: 1 },
      { name: 'distracted', value: 1 },
      { name: 'blend in', value: 1 },
    ]);
    expect(stealthModifiers('Stealth', 'stand out, no cover, dark, dark')).toEqual([
      { name: 'stand out', value: -1 },
      { name: 'no cover', value: -1 },
      { name: 'dark', value: 1 },
    ]);
    expect(stealthModifiers('Stealth', ' , ')).toEqual([]);
    expect(() => stealthModifiers('Stealth', 'dark, invisible')).toThrow(/invisible\*\* is not a Stealth factor/);
    expect(() => stealthModifiers('Force', 'dark')).toThrow(/Factors are the Stealth roll's/);
  });

  it('Stealth is opposed by Observation, Persuasion by Insight', () => {
    expect(OPPOSED_SKILL).toEqual({ Stealth: 'Observation', Persuasion: 'Insight' });
  });

  it('Persuasion must state its stakes before the roll; stakes are one line of at most 200 characters', () => {
    expect(() => checkedStakes('Persuasion', null)).toThrow(/Persuasion needs its stakes stated before the roll/);
    expect(() => checkedStakes('Persuasion', '   ')).toThrow(/Persuasion needs its stakes/);
    expect(checkedStakes('Persuasion', ' the guard\n lets us pass ')).toBe('the guard lets us pass');
    expect(checkedStakes('Force', undefined)).toBeUndefined();
    expect(() => checkedStakes('Force', 'x'.repeat(201))).toThrow(/at most 200 characters/);
  });

  it('Insight: a success reveals the strongest emotion; several successes also whether they lie; no success, nothing', () => {
    expect(skillExtras('Insight', 0)).toBeNull();
    expect(skillExtras('Insight', 1)).toMatch(/most powerful emotion \(hate, fear, contempt, love…\)\.$/);
    expect(skillExtras('Insight', 2)).toMatch(/and whether they are lying \(not what about, nor the truth\)\.$/);
    expect(skillExtras('Force', 3)).toBeNull();
  });
});

describe('odds', () => {
  it('the chance of at least one net success equals an enumeration of every face, 0–6 dice', () => {
    for (let n = 0; n <= 6; n++) {
      let favourable = 0n;
      for (const faces of allFaces(n, 6)) if (n > 0 && tally(faces).successes > 0) favourable++;
      expect(successChance(n)).toEqual({ favourable, total: 6n ** BigInt(n) });
    }
    expect(successChance(1)).toEqual({ favourable: 1n, total: 6n });
    expect(successChance(2)).toEqual({ favourable: 9n, total: 36n }); // 6 and 2–5 either way (8), and 6 6
  });
});

describe('replay', () => {
  it('a roll and its push re-derive the same dice from their seeds', () => {
    const roll = resolveD6Pool(input(), seededRng('pool-seed'));
    expect(rederive('pool', input(), 'pool-seed')).toEqual({ kind: 'pool', result: roll, dice: d6Faces(roll.dice) });
    const pushInput = { rollId: 'abcdefgh', attribute: 'STR' as const, dice: roll.dice };
    const pushed = resolvePush(pushInput, seededRng('push-seed'));
    expect(rederive('pool-push', pushInput, 'push-seed')).toEqual({ kind: 'pool-push', result: pushed, dice: d6Faces(pushed.dice) });
  });
});

describe('opposed rolls', () => {
  it("each of the opponent's successes cancels one of the active party's; more left wins", () => {
    expect(opposedOutcome(3, 1)).toEqual({ active: 3, opponent: 1, cancelled: 1, left: 2, tie: false, win: true });
    expect(opposedOutcome(1, 3)).toEqual({ active: 1, opponent: 3, cancelled: 1, left: 0, tie: false, win: false });
    expect(opposedOutcome(2, 0)).toMatchObject({ cancelled: 0, left: 2, win: true });
  });

  it('a tie fails for the active party, also 0 against 0', () => {
    expect(opposedOutcome(2, 2)).toMatchObject({ cancelled: 2, left: 0, tie: true, win: false });
    expect(opposedOutcome(0, 0)).toMatchObject({ tie: true, win: false });
  });

  it("uses net successes (banes count first) from both pools", () => {
    const active = resolveD6Pool(input({ skillLevel: 0, gear: 0 }), scriptedFaces(6, 6, 1)); // 1 net
    const opponent = resolveD6Pool(input({ skill: 'Insight', attribute: 'EMP', skillLevel: 0, gear: 0 }), scriptedFaces(6, 3, 3)); // 1 net
    expect(opposedResult(active, undefined, opponent)).toMatchObject({ active: 1, opponent: 1, tie: true, win: false });
  });

  it('a push after the opponent rolled re-computes the outcome from the pushed dice', () => {
    const active = resolveD6Pool(input({ skillLevel: 0, gear: 0 }), scriptedFaces(6, 3, 4)); // 1 success
    const opponent = resolveD6Pool(input({ skill: 'Insight', attribute: 'EMP', skillLevel: 0, gear: 0 }), scriptedFaces(6, 2, 2)); // 1 success
    expect(opposedResult(active, undefined, opponent)).toMatchObject({ tie: true, win: false });
    const better = resolvePush({ rollId: 'abcdefgh', attribute: 'STR', dice: active.dice }, scriptedFaces(6, 5)); // 2 successes
    expect(opposedResult(active, better, opponent)).toMatchObject({ active: 2, opponent: 1, cancelled: 1, left: 1, win: true });
    const worse = resolvePush({ rollId: 'abcdefgh', attribute: 'STR', dice: active.dice }, scriptedFaces(1, 5)); // 6 1 5: 0 net
    expect(opposedResult(active, worse, opponent)).toMatchObject({ active: 0, opponent: 1, left: 0, tie: false, win: false });
  });

  it("the opponent's roll (kind pool-opposed) re-derives from its seed", () => {
    const opposing = input({ skill: 'Insight', attribute: 'EMP', against: 'abcdefgh' });
    const roll = resolveD6Pool(opposing, seededRng('opp-seed'));
    expect(rederive('pool-opposed', opposing, 'opp-seed')).toEqual({ kind: 'pool-opposed', result: roll, dice: d6Faces(roll.dice) });
  });
});

describe('breaking a tie', () => {
  const activeInput = input({ skillLevel: 0, gear: 0, attributeValue: 2 });
  const opponentInput = input({ skill: 'Insight', attribute: 'EMP', skillLevel: 0, gear: 0, attributeValue: 2, against: 'abcdefgh' });

  it('re-rolls both pools as first rolled, the active party first; the re-roll decides', () => {
    const active = resolveD6Pool(activeInput, scriptedFaces(6, 3)); // 1
    const opponent = resolveD6Pool(opponentInput, scriptedFaces(2, 6)); // 1
    expect(opposedResult(active, undefined, opponent)).toMatchObject({ tie: true, win: false });
    const rng = scriptedFaces(6, 6, 6, 1);
    const broken = resolveTieBreak({ rollId: 'abcdefgh', round: 1, active: activeInput, opponent: opponentInput }, rng);
    expect(rng.remaining()).toBe(0);
    expect(tieBreakFaces(broken)).toEqual({ active: [6, 6], opponent: [6, 1] });
    expect(broken.outcome).toEqual({ active: 2, opponent: 0, cancelled: 0, left: 2, tie: false, win: true });
    expect(opposedStanding(active, undefined, opponent, [broken])).toMatchObject({ win: true });
    const lost = resolveTieBreak({ rollId: 'abcdefgh', round: 1, active: activeInput, opponent: opponentInput }, scriptedFaces(3, 3, 6, 2));
    expect(opposedStanding(active, undefined, opponent, [lost])).toMatchObject({ active: 0, opponent: 1, win: false, tie: false });
  });

  it('a re-roll that ties again is still a tie; the last re-roll decides; at most TIE_BREAKS_MAX rounds', () => {
    const again = resolveTieBreak({ rollId: 'abcdefgh', round: 1, active: activeInput, opponent: opponentInput }, scriptedFaces(2, 3, 4, 5));
    expect(again.outcome).toMatchObject({ active: 0, opponent: 0, tie: true, win: false });
    const second = resolveTieBreak({ rollId: 'abcdefgh', round: 2, active: activeInput, opponent: opponentInput }, scriptedFaces(6, 2, 2, 2));
    const active = resolveD6Pool(activeInput, scriptedFaces(2, 2));
    const opponent = resolveD6Pool(opponentInput, scriptedFaces(2, 2));
    expect(opposedStanding(active, undefined, opponent, [again, second])).toMatchObject({ win: true });
    expect(TIE_BREAKS_MAX).toBe(10);
    expect(() => resolveTieBreak({ rollId: 'abcdefgh', round: TIE_BREAKS_MAX + 1, active: activeInput, opponent: opponentInput }, seededRng('x'))).toThrow(/at most 10 times/);
    expect(() => resolveTieBreak({ rollId: 'abcdefgh', round: 0, active: activeInput, opponent: opponentInput }, seededRng('x'))).toThrow(/at most 10 times/);
  });

  it('an empty pool is re-rolled as empty: no dice, no successes', () => {
    const empty = input({ skill: 'Insight', attribute: 'EMP', skillLevel: 0, gear: 0, attributeValue: 0, against: 'abcdefgh' });
    const broken = resolveTieBreak({ rollId: 'abcdefgh', round: 1, active: activeInput, opponent: empty }, scriptedFaces(6, 2));
    expect(tieBreakFaces(broken)).toEqual({ active: [6, 2], opponent: [] });
    expect(broken.outcome).toMatchObject({ active: 1, opponent: 0, win: true });
  });

  it('a tie-break (kind pool-tiebreak) re-derives from its seed', () => {
    const tieBreak = { rollId: 'abcdefgh', round: 1, active: activeInput, opponent: opponentInput };
    const result = resolveTieBreak(tieBreak, seededRng('tie-seed'));
    expect(rederive('pool-tiebreak', tieBreak, 'tie-seed')).toEqual({ kind: 'pool-tiebreak', result, dice: tieBreakFaces(result) });
  });
});
