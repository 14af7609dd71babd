// A contest step's statements (contests.ts): what they write reads back to the millisecond; two saves at once still
// move a contest exactly once; on SQLite they wait for another program's lock without freezing the process.
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { applyContestAction, proposeContest, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import { seededRng } from '../../src/engine/rng.js';
import { databaseFile } from '../../src/store/sqlite-file-guard.js';
import { openStore, type Store } from '../../src/store/index.js';
import { freshDatabaseUrl, onPostgres, freshStoreEachTest } from '../helpers/database.js';

const GUILD = 'g';
const NOW = new Date('2031-03-14T20:00:00.123Z');
const LATER = new Date(NOW.getTime() + 15 * 60_000);

function draftOf(challengerId = 'sasha', opponentId = 'mike'): ContestState {
  return proposeContest({ challengerId, opponentId, challengerOperator: { id: 1, name: 'Kat' }, intent: 'Disarm Troy', stakes: 'Troy is disarmed', addsOwnSkill: false });
}

function declined(state: ContestState): ContestState {
  return applyContestAction(state, { type: 'decline' }, { userId: 'mike', isDispatcher: false, name: 'Troy' }, seededRng('x'));
}

function contestRoll(contestId: number) {
  return { guildId: GUILD, channelId: 'c', userId: 'mike', kind: 'contest', inputs: { contestId, round: 1 }, seed: 'seed', dice: [], result: {}, total: null, challengeLevel: null, success: null };
}

describe('a contest step’s statements', () => {
  let store: Store;
  freshStoreEachTest((opened) => (store = opened));

  it('write what Prisma writes, and read what Prisma wrote, to the millisecond', async () => {
    const before = Date.now();
    const draft = await store.contests.create({ guildId: GUILD, channelId: 'c', state: draftOf(), expiresAt: LATER });
    const posted = (await store.contests.post(draft, 'm1'))!;
    const saved = (await store.contests.save(posted, declined(posted.state), NOW))!;
    const after = Date.now();

    const row = (await store.db.contest.findUnique({ where: { id: draft.id } }))!;
    expect(row).toMatchObject({ guildId: GUILD, channelId: 'c', messageId: 'm1', challengerId: 'sasha', opponentId: 'mike', phase: 'ended', version: 2 });
    expect(JSON.parse(row.state)).toEqual(saved.state);
    expect(row.expiresAt.getTime()).toBe(NOW.getTime());
    for (const date of [row.createdAt, row.updatedAt]) {
      expect(date.getTime()).toBeGreaterThanOrEqual(before);
      expect(date.getTime()).toBeLessThanOrEqual(after);
    }
    expect(await store.contests.find(GUILD, draft.id)).toEqual(saved);

    // A contest Prisma wrote (as the bot did before) reads back whole through the step's reload.
    const byPrisma = await store.db.contest.create({
      data: { guildId: GUILD, channelId: 'c', challengerId: 'a', opponentId: 'b', phase: 'proposed', state: JSON.stringify({ ...draftOf('a', 'b'), phase: 'proposed' }), expiresAt: LATER },
    });
    expect(await store.contests.find(GUILD, byPrisma.id)).toMatchObject({ id: byPrisma.id, version: 0, messageId: null, expiresAt: LATER, state: { phase: 'proposed' } });

    // Stored in the same shapes: the sweep's and Prisma's comparisons of dates see them alike.
    if (onPostgres) {
      const types = (id: number) =>
        store.db.$queryRaw<{ expiresType: string; updatedType: string }[]>`SELECT pg_typeof("expiresAt")::text AS "expiresType", pg_typeof("updatedAt")::text AS "updatedType" FROM "Contest" WHERE "id" = ${id}`;
      expect(await types(draft.id)).toEqual(await types(byPrisma.id));
    } else {
      const shapes = (id: number) =>
        store.db.$queryRaw<{ expiresAt: string; createdAt: string; updatedAt: string }[]>`
          SELECT ("expiresAt" || '') AS "expiresAt", ("createdAt" || '') AS "createdAt", ("updatedAt" || '') AS "updatedAt" FROM "Contest" WHERE "id" = ${id}`;
      const digitsOut = (rows: Record<string, string>[]) => rows.map((each) => Object.fromEntries(Object.entries(each).map(([key, text]) => [key, text.replace(/\d/g, '9')])));
      expect(digitsOut(await shapes(draft.id))).toEqual(digitsOut(await shapes(byPrisma.id)));
    }
    expect((await store.contests.overdue(new Date(LATER.getTime() - 1))).map((contest) => contest.id)).toEqual([]);
    expect((await store.contests.overdue(LATER)).map((contest) => contest.id)).toEqual([byPrisma.id]);
  });

  it('count a player’s open contests on their server only, challenger or challenged, drafts and ended ones not', async () => {
    const open = async (state: ContestState, guildId = GUILD) => store.contests.post(await store.contests.create({ guildId, channelId: 'c', state, expiresAt: LATER }), null);
    await open(draftOf('sasha', 'mike'));
    await open(draftOf('mike', 'troy'));
    await open(draftOf('mike', 'sasha'), 'other');
    await store.contests.create({ guildId: GUILD, channelId: 'c', state: draftOf('mike', 'kat'), expiresAt: LATER });
    const ended = (await open(draftOf('kat', 'mike')))!;
    await store.contests.save(ended, declined(ended.state), LATER);
    expect(await store.contests.openCount(GUILD, 'mike')).toBe(2);
    expect(await store.contests.openCount(GUILD, 'kat')).toBe(0);
    expect(await store.contests.openCount('other', 'sasha')).toBe(1);
  });

  it('of two saves of one version at the same moment, one wins and only its roll is recorded', async () => {
    const contest = (await store.contests.post(await store.contests.create({ guildId: GUILD, channelId: 'c', state: draftOf(), expiresAt: LATER }), 'm'))!;
    const results = await Promise.all(
      ['race0001', 'race0002'].map((rollId) => store.contests.save(contest, declined(contest.state), LATER, store.rolls.entry(rollId, contestRoll(contest.id)))),
    );
    expect(results.filter((saved) => saved !== null)).toHaveLength(1);
    const rolls = await Promise.all(['race0001', 'race0002'].map((rollId) => store.rolls.find(GUILD, rollId)));
    expect(rolls.map((roll) => roll !== null)).toEqual(results.map((saved) => saved !== null));
    expect(await store.contests.find(GUILD, contest.id)).toMatchObject({ version: 2 });
  });
});

describe.skipIf(onPostgres)('a contest step on SQLite while another program holds the write lock', () => {
  it('waits for the lock, then saves with its roll, without freezing the process', async () => {
    const url = freshDatabaseUrl();
    const store = await openStore(url);
    try {
      const contest = (await store.contests.post(await store.contests.create({ guildId: GUILD, channelId: 'c', state: draftOf(), expiresAt: LATER }), 'm'))!;
      const other = new BetterSqlite3(databaseFile(url));
      other.exec('BEGIN IMMEDIATE');
      let released = false;
      setTimeout(() => {
        other.exec('COMMIT');
        other.close();
        released = true;
      }, 150);
      const saved = await store.contests.save(contest, declined(contest.state), LATER, store.rolls.entry('locked01', contestRoll(contest.id)));
      expect(released).toBe(true);
      expect(saved).toMatchObject({ version: 2 });
      expect(await store.rolls.find(GUILD, 'locked01')).not.toBeNull();
    } finally {
      await store.close();
    }
  });
});
