import { describe, expect, it } from 'vitest';
import type { StoredRoll } from '../../src/store/rolls.js';
import { LOG_COUNT_MAX, describeRoll, logIds, logLine, logPageLimit, type LogPress } from '../../src/views/log.js';

const createdAt = new Date('2026-11-22T20:00:00.123Z');

function stored(overrides: Partial<StoredRoll>): StoredRoll {
  return {
    id: 'abcd2345',
    guildId: 'g',
    channelId: 'c',
    userId: '111',
    kind: 'challenge',
    system: 'tactalk',
    inputs: { skill: { name: 'Handgun Handling', level: 50 }, challengeLevel: 90 },
    seed: 's',
    dice: null,
    result: {},
    total: 95,
    challengeLevel: 90,
    success: true,
    createdAt,
    secret: false,
    npc: null,
    hiddenChallengeLevel: false,
    blind: false,
    revealedAt: null,
    ...overrides,
  };
}

describe('the /log buttons’ custom_id', () => {
  const press: LogPress = {
    query: { viewerId: '12345678901234567890', userId: '98765432109876543210', count: LOG_COUNT_MAX, page: 100 },
    direction: 'older',
    cursor: { createdAt, id: 'zzzzzzzz' },
  };

  it('carries the viewer, the filter, the count, the page and the cursor, and reads back the same', () => {
    expect(logIds.parse(logIds.encode(press))).toEqual(press);
    const everyone: LogPress = { query: { viewerId: '1', userId: null, count: null, page: 1 }, direction: 'newer', cursor: { createdAt, id: 'abcd2345' } };
    expect(logIds.encode(everyone)).toBe(`log:newer:1:-:-:1:${createdAt.getTime()}:abcd2345`);
    expect(logIds.parse(logIds.encode(everyone))).toEqual(everyone);
  });

  it('stays within Discord’s 100 characters with the longest ids', () => {
    expect(logIds.encode({ ...press, query: { ...press.query, page: 99_999 } }).length).toBeLessThanOrEqual(100);
  });

  it('is refused when it is not one the view made', () => {
    for (const bad of ['log', 'log:sideways:1:-:-:1:0:x', 'log:older:me:-:-:1:0:x', 'log:older:1:-:-:0:0:x', 'log:older:1:-:ten:1:0:x', 'sheet:delete:1', 'log:older:1:-:-:1:0:']) {
      expect(logIds.parse(bad), bad).toBeNull();
    }
  });
});

describe('how many rolls a page holds', () => {
  it('is ten, and the rest of the count on the last page of a capped log', () => {
    expect(logPageLimit({ viewerId: '1', userId: null, count: null, page: 7 })).toBe(10);
    expect(logPageLimit({ viewerId: '1', userId: null, count: 12, page: 1 })).toBe(10);
    expect(logPageLimit({ viewerId: '1', userId: null, count: 12, page: 2 })).toBe(2);
    expect(logPageLimit({ viewerId: '1', userId: null, count: 12, page: 3 })).toBe(0);
  });
});

describe('a roll as a line of the log', () => {
  it('says what a challenge, a linked roll, a contest round and an outcome roll were, and what came of them', () => {
    expect(describeRoll(stored({}))).toEqual({ what: 'Handgun Handling 50 vs CL 90', outcome: '**95**, success' });
    const linked = stored({
      kind: 'linked',
      result: {
        succeeded: 1,
        results: [
          { input: { skill: { name: 'Handgun Handling' }, challengeLevel: 90 } },
          { input: { skill: { name: 'Driving' }, challengeLevel: 110 } },
        ],
      },
    });
    expect(describeRoll(linked)).toEqual({ what: 'linked: Handgun Handling vs 90; Driving vs 110', outcome: '**1 of 2** succeeded' });
    const contest = stored({
      kind: 'contest',
      inputs: { contestId: 3, round: 1, challenger: { skill: { name: 'CQC', level: 37 } }, opponent: { skill: { name: 'Shotgun Handling', level: 35 } } },
      result: { winner: 'opponent' },
    });
    expect(describeRoll(contest)).toEqual({ what: 'contest #3, round 1: CQC 37 vs Shotgun Handling 35', outcome: '**the opponent wins**' });
    expect(describeRoll({ ...contest, result: { winner: 'tie' } }).outcome).toBe('**tie**');
    // Rounds rolled since issue 23 keep the Operators' names (the older one above falls back to its side).
    const named = { ...contest, inputs: { ...(contest.inputs as object), names: { challenger: 'Kat', opponent: 'Troy' } } };
    expect(describeRoll(named).outcome).toBe('**Troy wins**');
    expect(describeRoll({ ...named, result: { winner: 'nobody' } }).outcome).toBe('**both failed: nothing changes**');
    // As /roll outcome stores it: the table with the inputs, the roll and the row in the result.
    const outcome = stored({
      kind: 'outcome',
      inputs: { table: { name: 'Reload', die: 'd100', asks: '', skill: null, rows: [] }, modifiers: [] },
      result: { roll: { dice: [], total: 48 }, result: 84, rowIndex: 2, row: { text: 'Jammed*\n# again' }, clamped: null },
    });
    expect(describeRoll(outcome)).toEqual({ what: 'outcome on Reload', outcome: '**84**: Jammed\\* # again' });
    expect(describeRoll(stored({ kind: 'mystery', total: 12 }))).toEqual({ what: 'mystery', outcome: '**12**' });
    const dice = stored({ kind: 'dice', inputs: { expression: '3#1d20+5', label: 'Attacks*' }, result: { rolls: [{ total: 23 }, { total: 13 }, { total: 18 }] } });
    expect(describeRoll(dice)).toEqual({ what: 'dice 3#1d20+5 (Attacks\\*)', outcome: '**23**, **13**, **18**' });
  });

  it('names the player, or the Dispatcher and the NPC they rolled for', () => {
    expect(logLine(stored({}), false)).toBe(`\`abcd2345\` <t:${Math.floor(createdAt.getTime() / 1000)}:R> <@111> · Handgun Handling 50 vs CL 90 → **95**, success`);
    expect(logLine(stored({ npc: 'Thug' }), false)).toContain('<@111> as **Thug** · ');
  });

  it('shows a secret roll only to a Dispatcher; anyone else sees that a Dispatcher rolled, nothing more', () => {
    const secret = stored({ secret: true, npc: 'Mole' });
    expect(logLine(secret, false)).toBe(`\`abcd2345\` <t:${Math.floor(createdAt.getTime() / 1000)}:R> 🤫 secret roll by a Dispatcher`);
    expect(logLine(secret, true)).toContain('🤫 <@111> as **Mole** · Handgun Handling 50 vs CL 90 → **95**, success');
  });
});

describe('a roll against a hidden CL in the log', () => {
  it('shows players the skill, the total they rolled and the verdict, never the CL; Dispatchers see everything', () => {
    const roll = stored({ inputs: { skill: { name: 'Lock Picking', level: 60 }, challengeLevel: 173, hidden: true }, challengeLevel: 173, total: 150, success: false, result: { success: false, result: 150 }, hiddenChallengeLevel: true });
    const forPlayer = logLine(roll, false);
    expect(forPlayer).toContain('Lock Picking vs a hidden CL → **150**, **failure**');
    expect(forPlayer).not.toMatch(/173/);
    expect(logLine(roll, true)).toContain('vs CL 173');
  });
});

