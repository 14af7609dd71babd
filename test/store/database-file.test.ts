// The database file itself: a DATABASE_URL with options is refused rather than taken as a file name, and a file
// deleted or replaced under the running store makes writes fail (and is reported once) instead of vanishing later.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile, DatabaseFileGoneError, watchDatabaseFile } from '../../src/store/sqlite-file-guard.js';
import { openStore, type Store } from '../../src/store/index.js';
import { freshDatabaseUrl } from '../helpers/database.js';

const roll = { guildId: 'g', channelId: 'c', userId: 'mike', kind: 'challenge', inputs: {}, seed: 'abc', dice: { tens: 4, ones: 8 }, result: {}, total: 48, challengeLevel: 90, success: false };
const mike = { guildId: 'g', ownerId: 'mike' };

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('DATABASE_URL', () => {
  it('refuses ?mode=ro with the accepted form, and creates no file named "bot.db?mode=ro"', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-url-'));
    await expect(openStore(`file:${folder}/bot.db?mode=ro`)).rejects.toThrow(`Use file:${folder}/bot.db on a file the bot may write`);
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});

describe('a database file deleted while the store is open', () => {
  it('refuses every kind of write and reports the loss once', async () => {
    const url = freshDatabaseUrl();
    store = await openStore(url);
    const problems: string[] = [];
    watchDatabaseFile(url, (problem) => problems.push(problem));
    await store.operators.create(mike, 'Troy');
    await store.rolls.record(roll);

    fs.rmSync(databaseFile(url));
    await expect(store.operators.create(mike, 'Kat')).rejects.toThrow(DatabaseFileGoneError);
    await expect(store.rolls.record(roll)).rejects.toThrow(/database file has disappeared.*so this was not saved/);
    await expect(store.servers.update('g', { contestTimeoutMinutes: 30 })).rejects.toThrow(DatabaseFileGoneError);
    expect(problems).toEqual([expect.stringContaining(`the database file ${databaseFile(url)} was deleted or replaced while the bot was running`)]);
  });

  it('refuses writes on a file replaced by another one at the same path', async () => {
    const url = freshDatabaseUrl();
    store = await openStore(url);
    const file = databaseFile(url);
    fs.copyFileSync(file, `${file}.copy`);
    fs.renameSync(`${file}.copy`, file);
    await expect(store.rolls.record(roll)).rejects.toThrow(DatabaseFileGoneError);
  });

  it('writes again once the same file is moved back', async () => {
    const url = freshDatabaseUrl();
    store = await openStore(url);
    const file = databaseFile(url);
    fs.renameSync(file, `${file}.away`);
    await expect(store.rolls.record(roll)).rejects.toThrow(DatabaseFileGoneError);
    fs.renameSync(`${file}.away`, file);
    await expect(store.rolls.record(roll)).resolves.toEqual(expect.any(String));
  });
});
