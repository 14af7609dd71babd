/**
 * PostgreSQL's own failures of load and reach, as the store meets them, are told apart from the bot's faults: the
 * user is told the database is busy or out of reach and to try again, not given an apology for a bug.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transaction } from '../../src/store/database.js';
import { openStore, type Store } from '../../src/store/index.js';
import { MessageFlags } from 'discord.js';
import { databaseTrouble } from '../../src/store/unavailable.js';
import { databaseTroubleReply } from '../../src/views/messages.js';
import { freshPostgresUrl } from '../helpers/database.js';

let url: string;
let store: Store;
beforeEach(async () => {
  url = await freshPostgresUrl();
  store = await openStore(url);
});
afterEach(async () => {
  await store.close();
});

async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('PostgreSQL failures worded for users', () => {
  it('a statement that ran out of time: busy', async () => {
    const error = await failure(() =>
      transaction(store.db, async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL statement_timeout = 20');
        await tx.$queryRawUnsafe('SELECT pg_sleep(1)');
      }),
    );
    expect(databaseTrouble(error)).toBe('busy');
  });

  it('a lock wait that ran out, on a model query: busy', async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "Server" IN ACCESS EXCLUSIVE MODE');
      const error = await failure(() =>
        transaction(store.db, async (tx) => {
          await tx.$executeRawUnsafe('SET LOCAL lock_timeout = 20');
          await tx.server.upsert({ where: { guildId: '1' }, create: { guildId: '1' }, update: {} });
        }),
      );
      expect(databaseTrouble(error)).toBe('busy');
    } finally {
      await holder.end();
    }
  });

  it('a connection lost mid-transaction: unreachable; and losing more connections than the pool holds does not use it up', async () => {
    const lose = () =>
      failure(() =>
        transaction(store.db, async (tx) => {
          const [backend] = await tx.$queryRawUnsafe<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
          const killer = new pg.Client({ connectionString: url });
          await killer.connect();
          await killer.query('SELECT pg_terminate_backend($1)', [backend!.pid]);
          await killer.end();
          await tx.server.findMany();
        }),
      );
    expect(databaseTrouble(await lose())).toBe('unreachable');
    // A connection lost goes back to the pool as lost; kept checked out, 25 of them would leave the store none (its
    // pool holds 21: postgres.ts).
    for (let loss = 0; loss < 25; loss++) await lose();
    expect(await store.servers.update('1', { contestTimeoutMinutes: 20 })).toMatchObject({ contestTimeoutMinutes: 20 });
  });

  it('a change that lost to a concurrent one on the same row (what `transaction` retries, once out of retries): busy', async () => {
    await store.servers.update('1', {});
    let bothRead!: () => void;
    const read = new Promise<void>((resolve) => (bothRead = resolve));
    let readers = 0;
    const change = (minutes: number) =>
      store.db.$transaction(
        async (tx) => {
          await tx.server.findMany();
          if (++readers === 2) bothRead();
          await read;
          await tx.server.update({ where: { guildId: '1' }, data: { contestTimeoutMinutes: minutes } });
        },
        { isolationLevel: 'Serializable' },
      );
    const outcomes = await Promise.allSettled([change(20), change(30)]);
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(lost).toHaveLength(1);
    expect(databaseTrouble((lost[0] as PromiseRejectedResult).reason)).toBe('busy');
  });

  it('no free connection in time: busy', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 20 });
    const held = await pool.connect();
    try {
      expect(databaseTrouble(await failure(() => pool.connect()))).toBe('busy');
    } finally {
      held.release();
      await pool.end();
    }
  });

  it('the bot’s own faults stay faults: a unique clash, a missing table', async () => {
    await store.servers.update('1', {});
    expect(databaseTrouble(await failure(() => store.db.server.create({ data: { guildId: '1' } })))).toBeNull();
    expect(databaseTrouble(await failure(() => store.db.$queryRawUnsafe('SELECT * FROM "NoSuchTable"')))).toBeNull();
    expect(databaseTrouble(new Error('something else'))).toBeNull();
  });

  it('tells the user what happened and that trying again later is the remedy', () => {
    expect(databaseTroubleReply('busy')).toMatchObject({ content: expect.stringMatching(/database is busy.*try again in a moment/), flags: MessageFlags.Ephemeral });
    expect(databaseTroubleReply('unreachable')).toMatchObject({ content: expect.stringMatching(/could not reach its database.*try again in a moment/), flags: MessageFlags.Ephemeral });
  });
});
