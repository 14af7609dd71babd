/**
 * Two stores on one PostgreSQL database, as two bot processes that both got presses on one contest (its shard moved
 * during a restart): the presses take turns across the processes, and the compare-and-set moves the state once.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { applyContestAction, proposeContest } from '../../src/engine/systems/tactalk/contest.js';
import { seededRng } from '../../src/engine/rng.js';
import type { Store } from '../../src/store/index.js';
import { twoProcessStores } from '../helpers/database.js';
import { adminQuery } from '../helpers/postgres-server.js';
import { until } from '../helpers/until.js';

let a: Store;
let b: Store;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ a, b, close } = await twoProcessStores());
});
afterEach(() => close());

const LATER = new Date(Date.now() + 15 * 60_000);

async function proposed() {
  const draft = await a.contests.create({
    guildId: 'g',
    channelId: 'c',
    state: proposeContest({ challengerId: 'sasha', opponentId: 'mike', challengerOperator: { id: 1, name: 'Kat' }, intent: 'Disarm Troy', stakes: 'Troy is disarmed', addsOwnSkill: false }),
    expiresAt: LATER,
  });
  return (await a.contests.post(draft, 'message'))!;
}

/** A press as commands/contest/press.ts makes it, in its turn: reload, decide, save with the compare-and-set. */
async function decline(store: Store, contestId: number, log: string[], name: string, hold?: Promise<void>): Promise<boolean> {
  return store.contests.inTurn(contestId, async () => {
    log.push(`${name} in`);
    const contest = (await store.contests.find('g', contestId))!;
    if (contest.state.phase !== 'proposed') {
      log.push(`${name} out`);
      return false;
    }
    await hold;
    const state = applyContestAction(contest.state, { type: 'decline' }, { userId: 'mike', isDispatcher: false, name: 'Troy' }, seededRng(name));
    const saved = await store.contests.save(contest, state, LATER);
    log.push(`${name} out`);
    return saved !== null;
  });
}

describe('presses on one contest in two processes', () => {
  it('take turns across the processes, and the contest moves once', async () => {
    const contest = await proposed();
    const log: string[] = [];
    let letFirstFinish!: () => void;
    const hold = new Promise<void>((resolve) => (letFirstFinish = resolve));
    const first = decline(a, contest.id, log, 'a', hold);
    await until(() => log.includes('a in'), 'a to take its turn');
    const second = decline(b, contest.id, log, 'b');
    // b's press waits for a's turn, however long a takes (up to the lock timeout): it is seen waiting on the lock.
    await until(async () => (await a.db.$queryRaw<{ waiting: number }[]>`SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)[0]!.waiting > 0, "b's press waiting for a's turn");
    expect(log).toEqual(['a in']);
    letFirstFinish();
    expect(await Promise.all([first, second])).toEqual([true, false]);
    expect(log).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(await b.contests.find('g', contest.id)).toMatchObject({ version: 2, state: { phase: 'ended' } });
  });

  it('without the turns, the compare-and-set alone still moves the contest once', async () => {
    for (let round = 0; round < 10; round++) {
      const contest = await proposed();
      const declined = applyContestAction(contest.state, { type: 'decline' }, { userId: 'mike', isDispatcher: false, name: 'Troy' }, seededRng('x'));
      const saves = await Promise.all([a.contests.save(contest, declined, LATER), b.contests.save(contest, declined, LATER)]);
      expect(saves.filter((saved) => saved !== null)).toHaveLength(1);
      expect((await a.contests.find('g', contest.id))!.version).toBe(contest.version + 1);
    }
  });

  it('a turn left by a process that died is free again: the lock goes with its connection', async () => {
    const contest = await proposed();
    let dead!: () => void;
    const never = new Promise<void>((resolve) => (dead = resolve));
    const log: string[] = [];
    const stuck = decline(a, contest.id, log, 'a', never).catch(() => 'a lost its connection');
    await until(() => log.includes('a in'), 'a to take its turn');
    // The process's connections end as they would when it is killed.
    await adminQuery(inject('postgresAdminUrl'), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tactalk-bot' AND query LIKE '%pg_advisory_lock%'`);
    expect(await decline(b, contest.id, log, 'b')).toBe(true);
    dead();
    await stuck;
  });
});

