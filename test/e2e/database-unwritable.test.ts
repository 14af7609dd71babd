// A database that cannot take writes: a full disk, a read-only file. The user hears, privately, that nothing was
// saved and to tell the admin (not "Sorry, something went wrong"); the log names the database's own code; and the
// bot does not start at all on a database file it cannot write.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../src/store/sqlite-file-guard.js';
import { statement } from '../../src/store/sqlite-adapter.js';
import { databaseUnwritable } from '../../src/store/unavailable.js';
import { captureBotLog } from '../helpers/bot-log.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { startUntilExit } from '../helpers/npm-start.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

describe('the driver’s own errors, classified', () => {
  it('a write on a read-only SQLite connection is SQLITE_READONLY: read-only, by better-sqlite3 and through Prisma’s adapter', async () => {
    const file = databaseFile(freshDatabaseUrl());
    const driver = new Database(file, { readonly: true });
    let driverError: unknown;
    try {
      driver.prepare('UPDATE "Operator" SET "notes" = \'x\'').run();
    } catch (error) {
      driverError = error;
    } finally {
      driver.close();
    }
    expect(databaseUnwritable(driverError)).toEqual({ reason: 'read-only', code: 'SQLITE_READONLY' });

    const adapter = await new PrismaBetterSqlite3({ url: `file:${file}`, readonly: true }).connect();
    const adapterError = await adapter.executeRaw(statement('UPDATE "Operator" SET "notes" = ?', 'x')).then(
      () => null,
      (error: unknown) => error,
    );
    await adapter.dispose();
    expect(databaseUnwritable(adapterError)).toEqual({ reason: 'read-only', code: 'SQLITE_READONLY' });
  });

  it('PostgreSQL’s disk_full, read_only_sql_transaction and io_error, as the adapter wraps them', () => {
    const wrapped = (sqlstate: string) => ({ name: 'DriverAdapterError', cause: { kind: 'postgres', originalCode: sqlstate, code: sqlstate } });
    expect(databaseUnwritable(wrapped('53100'))).toEqual({ reason: 'full', code: '53100' });
    expect(databaseUnwritable({ code: 'P2010', meta: { driverAdapterError: wrapped('25006') } })).toEqual({ reason: 'read-only', code: '25006' });
    expect(databaseUnwritable(wrapped('58030'))).toEqual({ reason: 'disk-error', code: '58030' });
    expect(databaseUnwritable({ code: 'SQLITE_IOERR_WRITE' })).toEqual({ reason: 'disk-error', code: 'SQLITE_IOERR_WRITE' });
    expect(databaseUnwritable(wrapped('40001'))).toBeNull();
    expect(databaseUnwritable(new Error('something else'))).toBeNull();
  });
});

it('a full disk: every write is answered privately that nothing was saved, and the log names SQLITE_FULL', async () => {
  const log = captureBotLog();
  sandbox = await startTestSandbox({ log: log.logger });
  expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } }))).toContain('Created **Troy**');

  // The file may grow no further, on the bot's own connection: as a full disk, SQLite answers SQLITE_FULL to the
  // first write that needs a new page. Notes of 1000 characters on new sheets need one within a few writes.
  const { db } = sandbox.bot.store;
  const pages = Number((await db.$queryRawUnsafe<Array<{ page_count: bigint }>>('PRAGMA page_count'))[0]!.page_count);
  await db.$queryRawUnsafe(`PRAGMA max_page_count = ${pages}`);
  // Each filler player makes a sheet and writes 1000 characters of notes on it, until a write meets the limit.
  let refused: string | null = null;
  for (let index = 0; index < 40 && refused === null; index++) {
    for (const request of [
      { user: `filler${index}`, command: 'sheet create', options: { name: 'Filler' } },
      { user: `filler${index}`, command: 'sheet notes', options: { text: `${index} ${'n'.repeat(990)}` } },
    ]) {
      const answer = await sandbox.one(request);
      if (textOf(answer).includes('cannot be written')) {
        expect(answer.ephemeral).toBe(true);
        refused = textOf(answer);
        break;
      }
    }
  }
  expect(refused).toBe('⚠️ The bot’s database cannot be written right now (the disk is full), so this was not saved. Please tell the server admin.');
  expect(refused).not.toContain('Sorry');
  expect(log.problems).toEqual([
    expect.objectContaining({ level: 50, code: 'SQLITE_FULL', msg: 'database cannot be written: SQLITE_FULL (the disk is full); the write was not saved' }),
  ]);

  // With room again, the bot writes as before; the refused write left nothing behind.
  await db.$queryRawUnsafe('PRAGMA max_page_count = 1073741823');
  expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Lena' } }))).toContain('Created **Lena**');
});

/**
 * Makes the file unwritable for the bot's user: chmod 444 for an ordinary user; as root, whom permissions do not
 * stop, the immutable attribute (chattr +i), which stops root too. Returns the undo, or null when neither is possible.
 */
function makeUnwritable(file: string): (() => void) | null {
  if (process.getuid?.() !== 0) {
    fs.chmodSync(file, 0o444);
    return () => fs.chmodSync(file, 0o644);
  }
  const chattr = (flag: string) => spawnSync('chattr', [flag, file], { stdio: 'ignore' }).status;
  if (chattr('+i') !== 0) return null;
  try {
    fs.appendFileSync(file, '');
  } catch {
    return () => void chattr('-i');
  }
  // The attribute did not stop a write here (a file system without it): this test cannot make the file unwritable.
  chattr('-i');
  return null;
}

it('refuses to start on a database file it cannot write, naming the file and what to do', async (context) => {
  const file = databaseFile(freshDatabaseUrl());
  const undo = makeUnwritable(file);
  if (!undo) {
    context.skip('this machine cannot make a file unwritable for its own user (root without chattr +i)');
    return;
  }
  try {
    const { output, exitCode } = await startUntilExit({ DATABASE_URL: `file:${file}` });
    expect(output).not.toContain('Sandbox ready');
    expect(exitCode).toBe(1);
    expect(output).toContain(`the SQLite file ${file} cannot be written (SQLITE_READONLY)`);
    expect(output).toContain('or set DATABASE_URL to a file the bot may write');
  } finally {
    undo();
  }
}, 60_000);
