// The database file deleted while the bot runs: the bot says nothing was saved instead of confirming a sheet that
// would vanish at the next start, and its log carries one clear error for whoever runs it.
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { databaseFile } from '../../src/store/sqlite-file-guard.js';
import { captureBotLog } from '../helpers/bot-log.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
});

it('refuses to confirm writes once its database file is deleted, and logs the loss once', async () => {
  const log = captureBotLog();
  sandbox = await startTestSandbox({ log: log.logger });
  expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } }))).toContain('Created **Troy**');

  fs.rmSync(databaseFile(sandbox.databaseUrl));
  for (const name of ['Kat', 'Lena']) {
    const answer = await sandbox.one({ user: 'mike', command: 'sheet create', options: { name } });
    expect(textOf(answer)).toContain('database file has disappeared (deleted or replaced while the bot was running), so this was not saved');
    expect(answer.ephemeral).toBe(true);
  }
  expect(log.problems).toEqual([
    expect.objectContaining({ level: 50, file: databaseFile(sandbox.databaseUrl), msg: expect.stringContaining('was deleted or replaced while the bot was running: writes are refused') }),
  ]);
});
