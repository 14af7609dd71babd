// The bot on PostgreSQL whose database is too busy (a table held locked past the lock timeout) or loses the
// connection under a command: the user is told so and to try again, privately, and the operator gets a warning —
// not an apology for a bug and an error line.
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { captureBotLog } from '../helpers/bot-log.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox | undefined;
let holder: pg.Client | undefined;
afterEach(async () => {
  await holder?.end().catch(() => undefined);
  await sandbox?.stop();
});

/** Another program holds every sheet locked in an open transaction. */
async function lockSheets(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE "Operator" IN ACCESS EXCLUSIVE MODE');
  return client;
}

it('a database too busy to answer in time: the user is asked to try again in a moment, the operator warned', async () => {
  const url = await freshPostgresUrl();
  const log = captureBotLog();
  sandbox = await startTestSandbox({ databaseUrl: url, log: log.logger });
  expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } }))).toContain('Created **Troy**');

  holder = await lockSheets(url);
  // The bot defers (the wait outlasts Discord's 3 s) and answers once its lock wait has run out.
  const asked = await sandbox.act({ user: 'mike', command: 'sheet create', options: { name: 'Kat' } });
  expect(await log.handled(asked.id, 30_000)).toBe(true);
  const { responses, errors } = sandbox.fake.answersTo(asked.id)!;
  expect(errors).toEqual([]);
  const answer = responses.filter((response) => response.kind !== 'deferred').at(-1)!;
  expect(textOf(answer)).toContain('The bot’s database is busy right now, so this could not be done. Please try again in a moment.');
  expect(log.problems).toEqual([expect.objectContaining({ level: 40, msg: 'database busy: a wait for it ran out', trouble: 'busy' })]);

  await holder.query('ROLLBACK');
  expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Kat' } }))).toContain('Created **Kat**');
});

it('a connection lost under a command: the user is told the database could not be reached, the operator warned', async () => {
  const url = await freshPostgresUrl();
  const log = captureBotLog();
  sandbox = await startTestSandbox({ databaseUrl: url, log: log.logger });
  holder = await lockSheets(url);
  const answering = sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  // The bot's query waits for the lock; its connection is then ended, as a database restart would.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rowCount } = await holder.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tactalk-bot' AND wait_event_type = 'Lock'`,
    );
    if (rowCount || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const answer = await answering;
  expect(textOf(answer)).toContain('The bot could not reach its database just now, so this may not have been done. Please check, and try again in a moment.');
  expect(log.problems).toEqual([expect.objectContaining({ level: 40, trouble: 'unreachable' })]);

  await holder.query('ROLLBACK');
  expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } }))).toContain('Created **Troy**');
});
