/**
 * Two stores on one PostgreSQL database, as two bot processes: what one changes, the other reads changed, once the
 * change's notification has arrived; with its listening connection gone, the other reads the database itself.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { adminQuery } from '../helpers/postgres-server.js';
import { twoProcessStores } from '../helpers/database.js';
import { until } from '../helpers/until.js';

let url: string;
let a: Store;
let b: Store;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ url, a, b, close } = await twoProcessStores());
});
afterEach(() => close());

/** Polls `read` until it gives what `done` accepts (a notification is on its way), or fails after a few seconds. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Waits until b has heard of every change a announced so far: notifications arrive in the order they committed, so
 * once b sees a marker a changed last, the earlier ones have been applied too.
 */
let markers = 0;
async function heardAll(): Promise<void> {
  const minutes = 100 + ++markers;
  await a.servers.update('marker', { contestTimeoutMinutes: minutes });
  const seen = await eventually(() => b.servers.settings('marker'), (settings) => settings.contestTimeoutMinutes === minutes);
  if (seen.contestTimeoutMinutes !== minutes) throw new Error('b never heard of the marker');
}

const mike = { guildId: '100', ownerId: 'mike' };
const climbing = async (store: Store) => (await store.operators.active(mike, 'tactalk'))?.skills.find((skill) => skill.name === 'Climbing')?.level;

describe('read caches shared by the processes of one PostgreSQL database', () => {
  it('a sheet changed through one process is read changed through another', async () => {
    expect(a.caches.listening && b.caches.listening).toBe(true);
    const sheet = await a.operators.create(mike, 'Troy');
    await a.operators.setSkill(sheet, 'Climbing', 40);
    expect(await climbing(b)).toBe(40);
    expect(await climbing(b)).toBe(40); // now cached in b

    await a.operators.setSkill(sheet, 'Climbing', 55);
    expect(await eventually(() => climbing(b), (level) => level === 55)).toBe(55);

    // A change of the scope (another sheet made active) reaches b's "active sheet" and "by name" entries too.
    await b.operators.byNameOrActive(mike, 'Troy', 'tactalk');
    await a.operators.create(mike, 'Kat');
    expect(await eventually(async () => (await b.operators.active(mike, 'tactalk'))?.name, (name) => name === 'Kat')).toBe('Kat');
    await a.operators.rename(mike, 'Troy', 'Troy Two');
    await expect(eventually(() => b.operators.byNameOrActive(mike, 'Troy', 'tactalk').then(() => 'still there', () => 'gone'), (found) => found === 'gone')).resolves.toBe('gone');
  });

  it('server settings changed through one process are read changed through another', async () => {
    expect((await b.servers.settings('100')).contestTimeoutMinutes).toBe(15);
    await a.servers.update('100', { contestTimeoutMinutes: 30, dispatcherRoleId: 'gm' });
    const seen = await eventually(() => b.servers.settings('100'), (settings) => settings.contestTimeoutMinutes === 30);
    expect(seen).toMatchObject({ contestTimeoutMinutes: 30, dispatcherRoleId: 'gm' });
    expect(await a.servers.claimWelcome('100', new Date())).toBe(true);
    expect((await eventually(() => b.servers.settings('100'), (settings) => settings.welcomedAt !== null)).welcomedAt).not.toBeNull();
  });

  it('without its listening connection a process reads the database every time, and caches again once it is back', async () => {
    const sheet = await a.operators.create(mike, 'Troy');
    await a.operators.setSkill(sheet, 'Climbing', 40);
    await heardAll();
    expect(await climbing(b)).toBe(40);
    // Written behind every store's back: a process that caches keeps answering what it read before.
    const sneak = (level: number) => adminQuery(url, `UPDATE "Skill" SET "level" = ${level} WHERE "name" = 'Climbing'`);
    await sneak(41);
    expect(await climbing(b)).toBe(40);

    const pid = b.caches.listenerPid;
    expect(pid).not.toBeNull();
    await adminQuery(inject('postgresAdminUrl'), `SELECT pg_terminate_backend(${pid})`);
    await until(() => !b.caches.listening, 'b to notice its listener is gone');
    // Caches off: every read is the database's, never the copy from before.
    expect(await climbing(b)).toBe(41);
    await sneak(42);
    expect(await climbing(b)).toBe(42);
    await a.operators.setSkill(sheet, 'Climbing', 43); // its notification reaches nobody in b
    expect(await climbing(b)).toBe(43);

    await until(() => b.caches.listening, 'b to listen again');
    expect(b.caches.listenerPid).not.toBe(pid);
    await heardAll();
    expect(await climbing(b)).toBe(43);
    await sneak(44);
    expect(await climbing(b)).toBe(43); // cached again
    await a.operators.setSkill(sheet, 'Climbing', 45); // and hearing of changes again
    expect(await eventually(() => climbing(b), (level) => level === 45)).toBe(45);
  });

  it('after a burst of changes and reads through both processes, both read what the database holds', async () => {
    const sheet = await a.operators.create(mike, 'Troy');
    // Changes one after another through either process, while both keep reading (and caching) all the time.
    let writing = true;
    const reading = [a, b].map(async (reader) => {
      while (writing) {
        await reader.operators.active(mike, 'tactalk');
        await reader.servers.settings('100');
        // Reads from the cache never wait for anything: let the rest of the process run between them.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    for (let index = 0; index < 40; index++) {
      const writer = index % 2 === 0 ? a : b;
      await writer.operators.setSkill(sheet, 'Climbing', index);
      if (index % 5 === 0) await writer.servers.update('100', { contestTimeoutMinutes: 20 + index });
    }
    writing = false;
    await Promise.all(reading);
    await a.servers.update('100', { contestTimeoutMinutes: 42 });
    await heardAll();
    // b heard everything a announced; a hears b's last change the same way.
    const level = (await a.db.skill.findFirstOrThrow({ where: { name: 'Climbing' } })).level;
    expect(await climbing(b)).toBe(level);
    expect(await eventually(() => climbing(a), (seen) => seen === level)).toBe(level);
    expect((await b.servers.settings('100')).contestTimeoutMinutes).toBe(42);
  });

  it('a once-only roll through two processes at once is stored once', async () => {
    const roll = { guildId: '100', channelId: 'c', userId: 'mike', kind: 'challenge', inputs: {}, seed: 's', dice: {}, result: {}, total: 50, challengeLevel: 60, success: false };
    for (let round = 0; round < 20; round++) {
      const id = `once${String(round).padStart(4, '0')}`;
      const answers = await Promise.all([a.rolls.recordOnce(id, roll), b.rolls.recordOnce(id, roll)]);
      expect(answers.filter(Boolean)).toHaveLength(1);
    }
    expect(await a.db.roll.count({ where: { id: { startsWith: 'once' } } })).toBe(20);
  });
});
