/**
 * Two stores on one PostgreSQL database, as two bot processes: what one changes, the other reads changed, once the
 * change's notification has arrived; with its listening connection gone, the other reads the database itself. How
 * stale a copy can get when that goes wrong is bounded (cache-bus.ts, CACHE_TIMING): a listener cut silently is found
 * out by its heartbeat, and an announcement lost for good is outlived by no copy's time to live.
 */
import net from 'node:net';
import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { CACHE_TIMING, postgresCacheBus, type CacheBus, type CacheTiming } from '../../src/store/cache-bus.js';
import { openDatabase } from '../../src/store/database.js';
import { openStore, type Store } from '../../src/store/index.js';
import { OperatorStore } from '../../src/store/operators.js';
import { ServerStore } from '../../src/store/servers.js';
import { captureBotLog, type CapturedLog } from '../helpers/bot-log.js';
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

/** What of a bot process the caches concern: its two cached repositories and its bus. */
type CachingProcess = Pick<Store, 'operators' | 'servers' | 'caches'>;

/**
 * Waits until `reader` (b by default) has heard of every change a announced so far: notifications arrive in the order
 * they committed, so once it sees a marker a changed last, the earlier ones have been applied too.
 */
let markers = 0;
async function heardAll(reader: CachingProcess = b): Promise<void> {
  const minutes = 100 + ++markers;
  await a.servers.update('marker', { contestTimeoutMinutes: minutes });
  const seen = await eventually(() => reader.servers.settings('marker'), (settings) => settings.contestTimeoutMinutes === minutes);
  if (seen.contestTimeoutMinutes !== minutes) throw new Error('the reader never heard of the marker');
}

const mike = { guildId: '100', ownerId: 'mike' };
const climbing = async (store: CachingProcess) => (await store.operators.active(mike, 'tactalk'))?.skills.find((skill) => skill.name === 'Climbing')?.level;

/**
 * A bot process's caching repositories on `url` with the caches' timing given (the production values, a clock the test
 * moves), and, with `refusedAnnouncements`, a database that takes none of its announcements (as when `pg_notify` fails
 * every attempt) while its writes commit.
 */
async function cachingProcess(url: string, options: { timing?: CacheTiming; log?: CapturedLog; refusedAnnouncements?: boolean } = {}): Promise<CachingProcess & { close(): Promise<void> }> {
  const opened = await openDatabase(url);
  const pool = opened.pool!;
  const announcing = options.refusedAnnouncements
    ? new Proxy(pool, {
        get(target, property) {
          if (property === 'query') {
            return (text: unknown, values?: unknown[]) =>
              String(text).includes('pg_notify') ? Promise.reject(new Error('the announcement was refused (test)')) : target.query(text as string, values);
          }
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      })
    : pool;
  const caches: CacheBus = await postgresCacheBus(announcing as pg.Pool, options.log?.logger, options.timing);
  return {
    operators: new OperatorStore(opened.db, caches),
    servers: new ServerStore(opened.db, caches),
    caches,
    close: async () => {
      await caches.close();
      await opened.close();
    },
  };
}

/**
 * Between a bot process and PostgreSQL: passes every connection through until told to cut the listening ones
 * silently, as a network cut does: from then on their packets are dropped both ways and neither end is told (no reset,
 * no close), so only the listener's heartbeat can find out.
 */
class SilentCutProxy {
  private readonly server = net.createServer((socket) => this.link(socket));
  private readonly links = new Set<{ client: net.Socket; upstream: net.Socket; listening: boolean; cut: boolean }>();

  private constructor(private readonly target: URL) {}

  static async start(databaseUrl: string): Promise<SilentCutProxy> {
    const proxy = new SilentCutProxy(new URL(databaseUrl));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The database's URL through the proxy. */
  get url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String((this.server.address() as net.AddressInfo).port);
    return url.toString();
  }

  /** Cuts every connection that has asked to LISTEN; returns how many. */
  cutListeners(): number {
    let cut = 0;
    for (const link of this.links) {
      if (link.listening && !link.cut) {
        link.cut = true;
        cut++;
      }
    }
    return cut;
  }

  async stop(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private link(client: net.Socket): void {
    const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
    const link = { client, upstream, listening: false, cut: false };
    this.links.add(link);
    client.on('data', (chunk: Buffer) => {
      if (link.cut) return;
      if (chunk.includes('LISTEN ')) link.listening = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!link.cut) client.write(chunk);
    });
    // A cut link's ends are left as they are: what one end says never reaches the other.
    client.on('end', () => link.cut || upstream.end());
    upstream.on('end', () => link.cut || client.end());
    client.on('error', () => link.cut || upstream.destroy());
    upstream.on('error', () => link.cut || client.destroy());
  }
}

const lostListener = (log: CapturedLog) => log.problems.some((line) => /lost the connection that hears/.test(String(line.msg)));

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

  it('after a silent cut of its listener (packets dropped, no reset) a process stops answering from its copy once its heartbeat goes unanswered', async () => {
    const proxy = await SilentCutProxy.start(url);
    const log = captureBotLog();
    // A third process, its every connection through the proxy, with the production heartbeat and time to live.
    const c = await openStore(proxy.url, log.logger);
    try {
      const sheet = await a.operators.create(mike, 'Troy');
      await a.operators.setSkill(sheet, 'Climbing', 40);
      await heardAll(c);
      expect(await climbing(c)).toBe(40);

      expect(proxy.cutListeners()).toBe(1);
      await a.operators.setSkill(sheet, 'Climbing', 55); // its announcement never reaches c
      // Nothing has told c yet: it may still answer its copy (for up to the heartbeat and its timeout), never worse.
      expect([40, 55]).toContain(await climbing(c));

      await until(() => lostListener(log), 'c’s heartbeat to find its listener gone');
      expect(log.problems.find((line) => /lost the connection that hears/.test(String(line.msg)))?.err).toMatchObject({ message: expect.stringMatching(/heartbeat/) });
      // From then on c reads what the database holds: caches off, or back on and started empty.
      expect(await climbing(c)).toBe(55);

      // A new listening connection (the proxy passes it), and c caches and hears of changes again.
      await until(() => c.caches.listening, 'c to listen again');
      await heardAll(c);
      await a.operators.setSkill(sheet, 'Climbing', 60);
      expect(await eventually(() => climbing(c), (level) => level === 60)).toBe(60);
    } finally {
      await c.close();
      await proxy.stop();
    }
  });

  it('a change whose announcement was lost for good is read once the copies’ time to live has passed', async () => {
    const clock = { now: 0 };
    const reader = await cachingProcess(url, { timing: { ...CACHE_TIMING, now: () => clock.now } });
    const writerLog = captureBotLog();
    const writer = await cachingProcess(url, { log: writerLog, refusedAnnouncements: true });
    try {
      const sheet = await a.operators.create(mike, 'Troy');
      await a.operators.setSkill(sheet, 'Climbing', 40);
      await heardAll(reader);
      expect(await climbing(reader)).toBe(40);
      expect((await reader.servers.settings('100')).contestTimeoutMinutes).toBe(15);

      // Committed, but the database takes none of the writer's announcements: it says so, and nobody hears of them.
      await writer.operators.setSkill(sheet, 'Climbing', 41);
      await writer.servers.update('100', { contestTimeoutMinutes: 30 });
      expect(writerLog.problems.filter((line) => /could not tell the other bot processes/.test(String(line.msg)))).toHaveLength(2);
      await heardAll(reader); // every announcement that was made has arrived
      expect(await climbing(reader)).toBe(40);
      expect((await reader.servers.settings('100')).contestTimeoutMinutes).toBe(15);

      clock.now = CACHE_TIMING.entryTtlMs - 1;
      expect(await climbing(reader)).toBe(40);
      clock.now = CACHE_TIMING.entryTtlMs;
      expect(await climbing(reader)).toBe(41);
      expect((await reader.servers.settings('100')).contestTimeoutMinutes).toBe(30);
    } finally {
      await writer.close();
      await reader.close();
    }
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
