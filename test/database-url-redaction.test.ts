// A database URL's password is never shown or logged: not in a configuration error, not in a failed connection or
// migration, not by `npm run db:copy`, not in any log line. One redaction (`redactPasswords`, src/log.ts) serves
// them all, wherever the password sits and whatever the URL looks like.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLogger, redactPasswords } from '../src/log.js';
import { copySqliteToPostgres } from '../src/store/copy.js';
import { migrateDatabase, openDatabase } from '../src/store/database.js';

const SECRET = 's3cret-Pa55';
const run = promisify(execFile);

describe('redactPasswords', () => {
  it.each([
    [`postgresql://tactalk:${SECRET}@db.internal:5432/tactalk`, 'postgresql://tactalk:[REDACTED]@db.internal:5432/tactalk'],
    [`postgresql://tactalk@db.internal/tactalk?password=${SECRET}`, 'postgresql://tactalk@db.internal/tactalk?password=[REDACTED]'],
    [`postgres://u@h/db?sslmode=require&PASSWORD=${SECRET}&application_name=x`, 'postgres://u@h/db?sslmode=require&PASSWORD=[REDACTED]&application_name=x'],
    [`postgresql://u@h/db?sslpassword=${SECRET}`, 'postgresql://u@h/db?sslpassword=[REDACTED]'],
    // A misspelt scheme, a missing colon, a password no URL parser takes (an unencoded @ or /), an empty user.
    [`postgresq://tactalk:${SECRET}@db/tactalk`, 'postgresq://tactalk:[REDACTED]@db/tactalk'],
    [`postgresql//tactalk:${SECRET}@db/tactalk`, 'postgresql//tactalk:[REDACTED]@db/tactalk'],
    [`postgresql://u:${SECRET}@x@db/tactalk`, 'postgresql://u:[REDACTED]@db/tactalk'],
    [`postgresql://u:${SECRET}/x@db/tactalk`, 'postgresql://u:[REDACTED]@db/tactalk'],
    [`mysql://:${SECRET}@db/x`, 'mysql://:[REDACTED]@db/x'],
    [`host=db user=u password=${SECRET} dbname=x`, 'host=db user=u password=[REDACTED] dbname=x'],
    [`file:./bot.db?password=${SECRET}`, 'file:./bot.db?password=[REDACTED]'],
  ])('hides the password of %s', (text, shown) => {
    expect(redactPasswords(text)).toBe(shown);
  });

  it.each([
    'postgresql://tactalk@db.internal:5432/tactalk',
    'file:./data/bot.db',
    'http://127.0.0.1:8787/api/v10/users/@me',
    'file:///srv/bot/src/main.ts:12:5',
  ])('leaves %s as it is: it has no password', (text) => {
    expect(redactPasswords(text)).toBe(text);
  });
});

describe('where a database URL is shown', () => {
  it.each([
    `postgresq://tactalk:${SECRET}@db/tactalk`,
    `mysql://tactalk@db/tactalk?password=${SECRET}`,
    `postgresql://tactalk:${SECRET}@db:port/tactalk`,
    `file:./bot.db?password=${SECRET}`,
    `file:./bot.db?mode=ro&password=${SECRET}`,
  ])('a configuration error about DATABASE_URL=%s names it without its password', (url) => {
    let message = '';
    try {
      loadConfig({ DATABASE_URL: url });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).not.toContain(SECRET);
  });

  it('the scheme typo is named, with the user and host, so the operator sees what to mend', () => {
    expect(() => loadConfig({ DATABASE_URL: `postgresq://tactalk:${SECRET}@db/tactalk` })).toThrow('not "postgresq://tactalk:[REDACTED]@db/tactalk"');
  });

  // Port 1 on the loopback refuses at once: the connection fails as an unreachable server's would.
  const unreachable = `postgresql://tactalk@127.0.0.1:1/tactalk?password=${SECRET}`;

  it('a PostgreSQL database that cannot be reached is named without the password of its URL', async () => {
    const opening = await openDatabase(unreachable).then(
      () => null,
      (error: Error) => error,
    );
    expect(opening?.message).toContain('could not connect to the PostgreSQL database of DATABASE_URL (postgresql://tactalk@127.0.0.1:1/tactalk?password=[REDACTED])');
    const migrating = await migrateDatabase(unreachable).then(
      () => null,
      (error: Error) => error,
    );
    expect(migrating?.message).toContain('password=[REDACTED]');
    expect(`${opening?.message} ${migrating?.message}`).not.toContain(SECRET);
  });

  it('a copy refused for its URLs names them without their passwords', async () => {
    const refusals = await Promise.all([
      copySqliteToPostgres(`postgresql://u@h/db?password=${SECRET}`, 'postgresql://u@h/db').catch((error: Error) => error.message),
      copySqliteToPostgres('file:./bot.db', `mysql://u:${SECRET}@h/db`).catch((error: Error) => error.message),
    ]);
    expect(refusals[0]).toContain('not postgresql://u@h/db?password=[REDACTED]');
    expect(refusals[1]).toContain('not mysql://u:[REDACTED]@h/db');
    expect(refusals.join(' ')).not.toContain(SECRET);
  });

  it('npm run db:copy prints the URLs it was given without their passwords', async () => {
    const root = path.resolve(import.meta.dirname, '..');
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/store/copy-command.ts', `postgresql://u@h/db?password=${SECRET}`, `postgresql://u:${SECRET}@h/db`], {
      cwd: root,
    }).catch((error: { stdout: string; stderr: string }) => error);
    expect(stdout).toContain('Copying postgresql://u@h/db?password=[REDACTED] into postgresql://u:[REDACTED]@h/db');
    expect(stderr).toContain('the source must be');
    expect(`${stdout}${stderr}`).not.toContain(SECRET);
  });

  it('a log line carrying a database URL anywhere (message, error, cause, field) carries it without the password', () => {
    const written: string[] = [];
    const log = createLogger('info', { pretty: false, destination: { write: (line: string) => void written.push(line) } });
    const cause = new Error(`connect failed for postgresql://u:${SECRET}@db/x`);
    log.error({ err: new Error(`could not start on postgresql://u@db/x?password=${SECRET}`, { cause }), url: `postgresq://u:${SECRET}@db/x`, password: SECRET }, 'could not start');
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('postgresql://u@db/x?password=[REDACTED]');
    expect(written[0]).toContain('postgresq://u:[REDACTED]@db/x');
    expect(written[0]).not.toContain(SECRET);
  });
});
