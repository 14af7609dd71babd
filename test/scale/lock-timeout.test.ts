/**
 * A statement that waits on another program's lock inside one of the store's transactions, on PostgreSQL: when the
 * wait runs out, nothing of the transaction reaches the database (not its earlier statements, not its later ones),
 * the user's answer is "busy", and the connection goes back to the pool clean and is used again. When the transaction
 * ends while a statement still waits (Prisma's own transaction timeout), no statement of it is sent afterwards,
 * outside any transaction.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSheetFile } from '../../src/engine/sheet-file.js';
import { transaction } from '../../src/store/database.js';
import { openStore, type Store } from '../../src/store/index.js';
import { databaseTrouble } from '../../src/store/unavailable.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { until } from '../helpers/until.js';

/** Far above closing a pool with every connection idle; a connection still checked out keeps pool.end() waiting. */
/** Only a hang guard: the store closes at once when every connection is back; one kept out would hold it for ever. */
const CLOSE_HANG_MS = 60_000;

let url: string;
let store: Store;
let closed: boolean;
/** Another program's session, and ours to watch the server with. */
let holder: pg.Client;
let observer: pg.Client;

beforeEach(async () => {
  url = await freshPostgresUrl();
  store = await openStore(url);
  closed = false;
  holder = new pg.Client({ connectionString: url, application_name: 'another program' });
  observer = new pg.Client({ connectionString: url, application_name: 'the test' });
  await Promise.all([holder.connect(), observer.connect()]);
});
afterEach(async () => {
  await holder?.end().catch(() => undefined);
  await observer?.end();
  if (!closed) await store?.close();
});

const mike = { guildId: '100', ownerId: 'mike' };

/** Another program holds `table` locked in an open transaction, until `release`. */
async function lockTable(table: string): Promise<{ release(): Promise<void> }> {
  await holder.query('BEGIN');
  await holder.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
  return { release: async () => void (await holder.query('ROLLBACK')) };
}

/** The store's connections as PostgreSQL sees them. */
async function storeConnections(): Promise<{ pid: number; state: string | null; waiting: boolean }[]> {
  const { rows } = await observer.query<{ pid: number; state: string | null; waiting: boolean }>(
    `SELECT pid, state, wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE application_name = 'tactalk-bot' AND datname = current_database()`,
  );
  return rows;
}

/** The store's connection that waits for a lock, once one does. */
async function waitingConnection(): Promise<number> {
  let pid: number | undefined;
  await until(async () => (pid = (await storeConnections()).find((connection) => connection.waiting)?.pid) !== undefined, 'a connection of the store waiting for the lock');
  return pid!;
}

async function failure(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

async function count(table: string): Promise<number> {
  const { rows } = await observer.query<{ count: string }>(`SELECT count(*) FROM "${table}"`);
  return Number(rows[0]!.count);
}

/** Closes the store, which waits for every connection to come back to its pool; false if it never does. */
async function closes(): Promise<boolean> {
  closed = true;
  const bound = new Promise<false>((resolve) => setTimeout(() => resolve(false), CLOSE_HANG_MS).unref());
  return Promise.race([store.close().then(() => true), bound]);
}

describe('a statement that waits on a lock inside a transaction, on PostgreSQL', () => {
  it('past the lock timeout: the user is told busy, nothing of the transaction is stored, and its connection is used again', async () => {
    await store.operators.create(mike, 'Troy');
    // The import deactivates Troy and inserts the new sheet, then waits to insert its skills; its archetypes and
    // conditions would come after.
    const imported = parseSheetFile(
      JSON.stringify({
        name: 'Kat',
        skills: [{ name: 'CQC', level: 40 }],
        archetypes: [{ name: 'Agile', modifier: 10 }],
        conditions: [{ name: 'Tired', modifier: -10 }],
      }),
    );
    const locked = await lockTable('Skill');
    const importing = failure(store.operators.import(mike, imported, false));
    const waiter = await waitingConnection();
    // The store's own lock timeout (src/store/postgres.ts) ends the wait: a few seconds.
    const error = await importing;
    expect(databaseTrouble(error), String(error)).toBe('busy');
    // Rolled back and given back before the failure was reported, while the other program still holds its lock.
    expect(await storeConnections()).toContainEqual({ pid: waiter, state: 'idle', waiting: false });
    expect((await storeConnections()).filter((connection) => connection.state !== 'idle')).toEqual([]);

    await locked.release();
    expect((await observer.query('SELECT name, active FROM "Operator"')).rows).toEqual([{ name: 'Troy', active: true }]);
    for (const table of ['Skill', 'Archetype', 'Attribute', 'Condition']) expect(await count(table), table).toBe(0);

    // The connection that waited is clean: the pool hands out the connection given back last first, and it runs the
    // next transaction, which succeeds.
    const next = await transaction(store.db, async (tx) => (await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid);
    expect(next).toBe(waiter);
    const { sheet } = await store.operators.import(mike, imported, false);
    expect(sheet).toMatchObject({ name: 'Kat', active: true, skills: [{ name: 'CQC', level: 40 }], archetypes: [{ name: 'Agile', modifier: 10 }] });
    expect(await closes()).toBe(true);
  });

  it('past the transaction’s own timeout: no statement of it is sent after it ended, outside any transaction', async () => {
    const troy = await store.operators.create(mike, 'Troy');
    // Another program changes Troy's row and keeps it locked.
    await holder.query('BEGIN');
    await holder.query(`UPDATE "Operator" SET "notes" = 'the other program''s' WHERE "id" = $1`, [troy.id]);
    // One change whose plan Prisma sends as statements one after another: the UPDATE of Troy's row (which waits for
    // the lock), then the INSERTs of the nested skill and archetype. Troy's row exists, so those INSERTs, sent after
    // the ROLLBACK outside any transaction, would be stored on their own.
    const timeoutMs = 500;
    const change = store.db.$transaction(
      (tx) =>
        tx.operator.update({
          where: { id: troy.id },
          data: { notes: 'changed', skills: { create: [{ name: 'CQC', nameKey: 'cqc', level: 40 }] }, archetypes: { create: [{ name: 'Agile', nameKey: 'agile', modifier: 10 }] } },
        }),
      { isolationLevel: 'Serializable', timeout: timeoutMs },
    );
    const changing = failure(change);
    await waitingConnection();
    // Prisma ends the transaction once its time is up, while the UPDATE still waits; then the other program lets go
    // of the row, and the UPDATE completes after the end of its transaction. Prisma armed its timer of `timeoutMs`
    // when the transaction began, before the UPDATE was seen waiting: a timer of the same length armed now fires after
    // it on the same event loop, however loaded the machine is. It waits for Prisma's timer, not for a guessed time.
    await new Promise((resolve) => setTimeout(resolve, timeoutMs));
    await holder.query('ROLLBACK');
    const error = await changing;
    expect(databaseTrouble(error), String(error)).toBe('busy');

    expect((await observer.query('SELECT notes FROM "Operator"')).rows).toEqual([{ notes: '' }]);
    for (const table of ['Skill', 'Archetype']) expect(await count(table), table).toBe(0);
    expect((await storeConnections()).filter((connection) => connection.state !== 'idle')).toEqual([]);
    await store.operators.setSkill(troy, 'CQC', 45);
    expect((await store.operators.get(mike.guildId, troy.id))?.skills).toMatchObject([{ name: 'CQC', level: 45 }]);
    expect(await closes()).toBe(true);
  });
});
