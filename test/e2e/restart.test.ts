// Sheets live in the SQLite file: a bot stopped and started on the same file finds them intact.
import { afterEach, expect, it } from 'vitest';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
});

it('keeps sheets and rolls across a restart of the bot and of the whole sandbox', async () => {
  sandbox = await startTestSandbox();
  await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
  await sandbox.one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat' } });
  await sandbox.one({ user: 'sasha', command: 'sheet skill set', options: { name: 'CQC', level: 37 } });
  const roll = await sandbox.one({ user: 'sasha', command: 'roll challenge', options: { skill: 'cqc', cl: 90 } });
  const rollId = /Roll (\w{8})/.exec(textOf(roll))![1]!;

  await sandbox.restartBot();
  expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet show' }))).toContain('Climbing **40**');

  const { databaseUrl } = sandbox;
  await sandbox.stop();
  sandbox = await startTestSandbox({ databaseUrl });
  expect(textOf(await sandbox.one({ user: 'sasha', command: 'sheet show' }))).toContain('CQC **37**');
  expect(textOf(await sandbox.one({ user: 'mike', command: 'roll replay', options: { id: rollId } }))).toContain('the dice match');
  expect(sandbox.fake.violations).toEqual([]);
});
