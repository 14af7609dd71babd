import { describe, expect, it } from 'vitest';
import { applyContestAction, proposeContest, resolveContestRoll, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import { seededRng } from '../../src/engine/rng.js';
import type { StoredContest } from '../../src/store/contests.js';
import type { Store } from '../../src/store/index.js';
import { isIdClash } from '../../src/store/database.js';
import { ROLL_ID_PATTERN, type RollRecordInput } from '../../src/store/rolls.js';
import { freshStoreEachTest } from '../helpers/database.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

const GUILD = 'g';
const NOW = new Date('2031-03-14T20:00:00Z');
const LATER = new Date(NOW.getTime() + 15 * 60_000);

function draftOf(challengerId = 'sasha', opponentId = 'mike'): ContestState {
  return proposeContest({ challengerId, opponentId, challengerOperator: { id: 1, name: 'Kat' }, intent: 'Disarm Troy', stakes: 'Troy is disarmed', addsOwnSkill: false });
}

function create(state = draftOf(), expiresAt = LATER): Promise<StoredContest> {
  return store.contests.create({ guildId: GUILD, channelId: 'c', state, expiresAt });
}

function contestRoll(contestId: number): RollRecordInput {
  return {
    guildId: GUILD,
    channelId: 'c',
    userId: 'mike',
    kind: 'contest',
    inputs: { contestId, round: 1 },
    seed: 'seed',
    dice: [],
    result: { winner: 'opponent' },
    total: null,
    challengeLevel: null,
    success: null,
  };
}

/** A later state of the contest, as a press would save it (who acted does not matter to the store). */
function declined(state: ContestState): ContestState {
  return applyContestAction(state, { type: 'decline' }, { userId: 'mike', isDispatcher: false, name: 'Troy' }, seededRng('x'));
}

describe('contest drafts', () => {
  it('a new contest is a draft: it takes none of its players’ open contests until it is posted', async () => {
    const draft = await create();
    expect(draft).toMatchObject({ version: 0, messageId: null, state: { phase: 'draft' } });
    expect(await store.contests.openCount(GUILD, 'sasha')).toBe(0);
    expect(await store.contests.openCount(GUILD, 'mike')).toBe(0);

    const posted = await store.contests.post(draft, 'message-1');
    expect(posted).toMatchObject({ version: 1, messageId: 'message-1', state: { phase: 'proposed' } });
    expect(await store.contests.find(GUILD, draft.id)).toEqual(posted);
    expect(await store.contests.openCount(GUILD, 'sasha')).toBe(1);
    expect(await store.contests.openCount(GUILD, 'mike')).toBe(1);
  });

  it('posting is one compare-and-set: of two posts of the same draft only the first counts, and it keeps its message', async () => {
    const draft = await create();
    expect(await store.contests.post(draft, 'from-the-press')).not.toBeNull();
    expect(await store.contests.post(draft, 'from-the-reply')).toBeNull();
    expect(await store.contests.find(GUILD, draft.id)).toMatchObject({ version: 1, messageId: 'from-the-press', state: { phase: 'proposed' } });
  });

  it('the expiry sweep finds drafts left unposted past their time, as it finds open contests; not before', async () => {
    const draft = await create();
    const open = (await store.contests.post(await create(draftOf('omar', 'eve')), 'm'))!;
    expect(await store.contests.overdue(NOW)).toEqual([]);
    expect((await store.contests.overdue(LATER)).map((contest) => contest.id).sort()).toEqual([draft.id, open.id].sort());
  });

  it('a process sweeps only the servers of its shards, and finds its own behind any number of others', async () => {
    // Discord's shard of a server: (guild_id >> 22) % count. Of 2 shards, 4194304·2 is shard 0's, 4194304·3 shard 1's.
    const shard0 = String(4_194_304n * 2_000_000_000_002n);
    const shard1 = String(4_194_304n * 2_000_000_000_003n);
    // Another process's servers overdue first, more of them than a sweep takes at once, and a server id that is no number.
    for (let index = 0; index < 250; index++) await store.contests.create({ guildId: shard1, channelId: 'c', state: draftOf(), expiresAt: NOW });
    await store.contests.create({ guildId: 'not-a-snowflake', channelId: 'c', state: draftOf(), expiresAt: NOW });
    const ours = await store.contests.create({ guildId: shard0, channelId: 'c', state: draftOf(), expiresAt: LATER });
    const swept = await store.contests.overdue(LATER, 100, { ids: [0], count: 2 });
    expect(swept.map((contest) => contest.id)).toEqual([ours.id]);
    expect(await store.contests.overdue(LATER, 100, { ids: [1], count: 2 })).toHaveLength(100);
    expect(await store.contests.overdue(LATER, 300, { ids: [1], count: 2 })).toHaveLength(250);
    expect(await store.contests.overdue(LATER, 300, { ids: [0, 1], count: 2 })).toHaveLength(251);
    expect(await store.contests.overdue(LATER, 300)).toHaveLength(252);
  });

  it('fills a missing message id without a new version, and never replaces one', async () => {
    const draft = await create();
    const unrecorded = (await store.contests.post(draft, null))!;
    expect(unrecorded.messageId).toBeNull();
    expect(await store.contests.fillMessage(unrecorded, 'shown-on')).toMatchObject({ messageId: 'shown-on', version: 1 });
    expect(await store.contests.find(GUILD, draft.id)).toMatchObject({ messageId: 'shown-on', version: 1 });
    await store.contests.fillMessage(unrecorded, 'another');
    expect((await store.contests.find(GUILD, draft.id))!.messageId).toBe('shown-on');
  });
});

describe('saving a contest with its round’s roll', () => {
  it('saves the state and records the roll together', async () => {
    const contest = (await store.contests.post(await create(), 'm'))!;
    const next = declined(contest.state);
    const saved = await store.contests.save(contest, next, LATER, store.rolls.entry('rolled01', contestRoll(contest.id)));
    expect(saved).toMatchObject({ version: 2, state: { phase: 'ended' } });
    expect(await store.contests.find(GUILD, contest.id)).toMatchObject({ version: 2, state: { phase: 'ended' } });
    expect(await store.rolls.find(GUILD, 'rolled01')).toMatchObject({ kind: 'contest', inputs: { contestId: contest.id, round: 1 } });
  });

  it('a roll that cannot be recorded (its id is taken) leaves the contest unsaved', async () => {
    const contest = (await store.contests.post(await create(), 'm'))!;
    expect(await store.rolls.recordOnce('taken001', { ...contestRoll(999), kind: 'challenge' })).toBe(true);
    const clash = await store.contests.save(contest, declined(contest.state), LATER, store.rolls.entry('taken001', contestRoll(contest.id))).catch((error: unknown) => error);
    // Told apart from other failures, so a press can decide again under a new roll id.
    expect(isIdClash(clash)).toBe(true);
    expect(await store.contests.find(GUILD, contest.id)).toEqual(contest);
    expect((await store.rolls.find(GUILD, 'taken001'))!.kind).toBe('challenge');
    // The contest can still move on, with its roll under another id.
    expect(await store.contests.save(contest, declined(contest.state), LATER, store.rolls.entry('rolled02', contestRoll(contest.id)))).not.toBeNull();
    expect(await store.rolls.find(GUILD, 'rolled02')).not.toBeNull();
  });

  it('a move that rolled a round: the store records the round’s roll, under the id the saved round shows, rolled again from its inputs and seed', async () => {
    const choice = (role: 'attacker' | 'defender', name: string, level: number) => ({ role, skill: { name, level }, conditionModifiers: [], archetypeModifiers: [] });
    const draft = proposeContest({ challengerId: 'sasha', opponentId: 'mike', challengerOperator: { id: 1, name: 'Kat' }, intent: 'Disarm Troy', stakes: 'Troy is disarmed', addsOwnSkill: false, choice: choice('attacker', 'CQC', 37) });
    const posted = (await store.contests.post(await create(draft), 'm'))!;
    const countered = applyContestAction(posted.state, { type: 'accept', stakes: 'Kat is kicked', operator: { id: 2, name: 'Troy' }, choice: choice('defender', 'Shotgun Handling', 35) }, { userId: 'mike', isDispatcher: false, name: 'Troy' }, seededRng('x'));
    const contest = (await store.contests.save(posted, countered, LATER))!;
    const rolled = applyContestAction(contest.state, { type: 'agree' }, { userId: 'sasha', isDispatcher: false, name: 'Kat' }, seededRng('round-seed'));
    const saved = (await store.contests.saveMove(contest, rolled, LATER, { by: { guildId: GUILD, channelId: 'c', userId: 'sasha' }, seed: 'round-seed' }))!;
    const round = saved.state.rounds[0]!;
    expect(round.rollId).toMatch(ROLL_ID_PATTERN);
    expect(await store.contests.find(GUILD, contest.id)).toEqual(saved);
    const roll = (await store.rolls.find(GUILD, round.rollId!))!;
    expect(roll).toMatchObject({ kind: 'contest', userId: 'sasha', channelId: 'c', seed: 'round-seed', inputs: { contestId: contest.id, round: 1, bothFail: 'nobody', names: { challenger: 'Kat', opponent: 'Troy' } } });
    const inputs = roll.inputs as Parameters<typeof resolveContestRoll>[0];
    expect(resolveContestRoll(inputs, seededRng('round-seed'))).toEqual({ challenger: round.challenger, opponent: round.opponent, winner: round.winner });
    // A move that rolls nothing is saved as any other change, with no roll.
    const other = (await store.contests.post(await create(), 'm2'))!;
    expect(await store.contests.saveMove(other, declined(other.state), LATER, { by: { guildId: GUILD, channelId: 'c', userId: 'mike' }, seed: 'unused' })).toMatchObject({ version: 2, state: { phase: 'ended' } });
    expect((await store.rolls.page(GUILD, { limit: 10 })).rolls.map((each) => each.id)).toEqual([round.rollId]);
  });

  it('a save that lost the race records no roll either', async () => {
    const contest = (await store.contests.post(await create(), 'm'))!;
    expect(await store.contests.save(contest, declined(contest.state), LATER)).not.toBeNull();
    expect(await store.contests.save(contest, declined(contest.state), LATER, store.rolls.entry('rolled03', contestRoll(contest.id)))).toBeNull();
    expect(await store.rolls.find(GUILD, 'rolled03')).toBeNull();
  });
});
