/**
 * How the read caches (read-cache.ts) hear of writes made by other bot processes.
 *
 * SQLite: one process owns the file, so every write is this process's own and nothing needs telling.
 * PostgreSQL: after a write commits, the repository that made it drops its own entries and announces the change
 * (`pg_notify` on one channel, the payload naming the cache and what changed); every store listens on a connection
 * it keeps from the store's pool (postgres.ts counts it) and drops what each announcement names. While that
 * connection is down (not yet up, lost, or not answering) nothing can be heard, so every cache is off and reads go to
 * the database; once it is listening again the caches start empty, since announcements may have been missed
 * meanwhile.
 *
 * How stale a cached entry can be (CACHE_TIMING): normally a round trip, the time for an announcement to arrive. A
 * silent network cut of the listener (no reset, so nothing tells the process) is noticed by the heartbeat within
 * `heartbeatMs + heartbeatTimeoutMs` (4 s), and caches go off then; an announcement lost for good (its `pg_notify`
 * failed every attempt) leaves the others' copies until their time to live ends (`entryTtlMs`, 30 s). So: at most
 * min(TTL, heartbeat + timeout) after a silent cut, at most the TTL after a lost announcement.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import type { Logger } from '../log.js';
import type { CacheClock } from './read-cache.js';

/** The read caches' bounds on staleness (see above); a test gives its own bus other values or a clock it moves. */
export interface CacheTiming {
  /**
   * How long an entry is answered from memory before it is read again. 30 s: a player's rolls of one scene come
   * seconds apart, so nearly every roll still finds its sheet in memory (one extra read per sheet in use per 30 s),
   * while a change whose announcement was lost shows within half a minute, before a player would give up on it.
   */
  entryTtlMs: number;
  /**
   * The listener asks the server `SELECT 1` this long after its last answer, and takes no answer within
   * `heartbeatTimeoutMs` as a lost connection. 2 s + 2 s: half a query a second per process, and a silent cut turns
   * the caches off within 4 s; a database that cannot answer `SELECT 1` in 2 s is in trouble anyway, and reading
   * through is then the safer side.
   */
  heartbeatMs: number;
  heartbeatTimeoutMs: number;
  /** The caches' clock (default monotonic): a test moves it past the time to live instead of waiting. */
  now?: CacheClock;
}

/** The production values, the one place they are set. */
export const CACHE_TIMING: Readonly<CacheTiming> = { entryTtlMs: 30_000, heartbeatMs: 2_000, heartbeatTimeoutMs: 2_000 };

/** What a cache does with the announcements of other processes. */
export interface SharedCache {
  /** Drops what `change` (as the announcing repository described it) may have made stale. */
  forget(change: unknown): void;
  /** Off: read through, keep nothing; on or off, start empty. */
  setCaching(on: boolean): void;
}

export interface CacheBus {
  /** Registers a cache under a name the announcements use. */
  join(name: string, cache: SharedCache): void;
  /**
   * Tells the other processes that a committed write changed `change` in cache `name`; resolves once the database
   * has taken the announcement (so an answer given after it is not ahead of the other processes' caches for long).
   * Never throws: a write that committed is not reported as failed because its announcement was not.
   */
  announce(name: string, change: unknown): Promise<void>;
  /** Whether the other processes' writes are heard of now (always on SQLite). */
  readonly listening: boolean;
  /** The listening connection's server process id (PostgreSQL, while listening), for operators and tests. */
  readonly listenerPid: number | null;
  /** The bounds the caches keep to: every cache that joins takes its time to live and clock from here. */
  readonly timing: Readonly<CacheTiming>;
  close(): Promise<void>;
}

/** SQLite's: nothing to tell, nobody to hear from. */
export function processLocalBus(timing: Readonly<CacheTiming> = CACHE_TIMING): CacheBus {
  return {
    join: () => undefined,
    announce: async () => undefined,
    listening: true,
    listenerPid: null,
    timing,
    close: async () => undefined,
  };
}

/** The one channel every store of the bot announces on and listens to. */
const CHANNEL = 'tactalk_caches';
/** PostgreSQL refuses a payload of 8000 bytes or more; a change too long to describe drops the whole cache. */
const MAX_PAYLOAD = 7_900;
/** Reconnecting: the first pause, doubling up to the last (with jitter, so processes do not reconnect in step). */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** Connecting the listener and its LISTEN: slower than this is a failed attempt, tried again later. */
const CONNECT_TIMEOUT_MS = 5_000;
/** An announcement the database did not take is tried this often in all before it is given up (and logged). */
const ANNOUNCE_ATTEMPTS = 3;

const announcementSchema = z.object({
  /** The announcing store, so that a store skips its own (it already dropped those entries). */
  from: z.string(),
  cache: z.string(),
  /** Absent: drop the whole cache. */
  change: z.unknown().optional(),
});
type Announcement = z.infer<typeof announcementSchema>;

/** A payload as another bot process sent it; null when it is not an announcement. */
function readAnnouncement(payload: string | undefined): Announcement | null {
  try {
    const parsed = announcementSchema.safeParse(JSON.parse(payload ?? ''));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The PostgreSQL bus: announces through `pool` and listens on a connection it keeps from it. Resolves after the first
 * attempt to listen, so a bot that starts with its database up starts with its caches on; when that attempt fails it
 * keeps trying in the background, caches off.
 */
export async function postgresCacheBus(pool: pg.Pool, log?: Logger, timing: Readonly<CacheTiming> = CACHE_TIMING): Promise<PostgresCacheBus> {
  const bus = new PostgresCacheBus(pool, log, timing);
  await bus.connect();
  return bus;
}

/**
 * `work`, or a rejection once `ms` passed without it settling. An answer that arrived while the event loop was busy
 * elsewhere is read first (the rejection waits for the loop's I/O), so a stalled process is not taken for a lost
 * connection.
 */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let pending: NodeJS.Immediate | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      pending = setImmediate(() => reject(new Error(`${what}: no answer within ${ms} ms`)));
    }, ms);
  });
  return Promise.race([work, late]).finally(() => {
    clearTimeout(timer);
    clearImmediate(pending);
  });
}

export class PostgresCacheBus implements CacheBus {
  private readonly caches = new Map<string, SharedCache>();
  private readonly id = randomBytes(8).toString('hex');
  private client: pg.PoolClient | null = null;
  /** The clients given back to the pool (each once: closed, never reused, since it was listening). */
  private readonly givenBack = new WeakSet<pg.PoolClient>();
  private connected = false;
  private closed = false;
  private failures = 0;
  private everListened = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log?: Logger,
    readonly timing: Readonly<CacheTiming> = CACHE_TIMING,
  ) {}

  get listening(): boolean {
    return this.connected;
  }

  get listenerPid(): number | null {
    return this.connected ? ((this.client as unknown as { processID?: number } | null)?.processID ?? null) : null;
  }

  join(name: string, cache: SharedCache): void {
    this.caches.set(name, cache);
    cache.setCaching(this.connected);
  }

  async announce(name: string, change: unknown): Promise<void> {
    let payload = JSON.stringify({ from: this.id, cache: name, change } satisfies Announcement);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = JSON.stringify({ from: this.id, cache: name } satisfies Announcement);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
        return;
      } catch (error) {
        if (attempt >= ANNOUNCE_ATTEMPTS || this.closed) {
          // The other processes keep what they cached of this change until its time to live ends (entryTtlMs).
          this.log?.warn({ err: error, cache: name }, 'could not tell the other bot processes about a change; their cached copy may be stale');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  /** One attempt to connect and listen; on failure (or a later loss) another is scheduled. */
  async connect(): Promise<void> {
    if (this.closed) return;
    let client: pg.PoolClient;
    try {
      client = await within(this.pool.connect(), CONNECT_TIMEOUT_MS, 'connecting the cache listener');
    } catch (error) {
      this.failed(error);
      return;
    }
    if (this.closed) {
      this.giveBack(client);
      return;
    }
    this.client = client;
    // Both fire on a loss; `lost` acts once per client.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => this.heard(message.payload));
    try {
      await within(client.query(`LISTEN ${CHANNEL}`), CONNECT_TIMEOUT_MS, 'LISTEN');
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.client !== client || this.closed) return;
    this.connected = true;
    const afterLoss = this.everListened;
    this.everListened = true;
    this.failures = 0;
    // Announcements may have been missed while not listening: start from nothing.
    for (const cache of this.caches.values()) cache.setCaching(true);
    this.heartbeat(client);
    if (afterLoss) this.log?.info('listening for other bot processes’ changes again: caches on, started empty');
    else this.log?.debug('listening for other bot processes’ changes: caches on');
  }

  /**
   * A connection can die without a word (a network cut with no reset): the next `SELECT 1` is asked `heartbeatMs`
   * after the last answer, never two at once, so a silent cut is taken as a loss within heartbeatMs + heartbeatTimeoutMs.
   */
  private heartbeat(client: pg.PoolClient): void {
    const { heartbeatMs, heartbeatTimeoutMs } = this.timing;
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeatTimer = null;
      within(client.query('SELECT 1'), heartbeatTimeoutMs, 'the cache listener heartbeat').then(
        () => {
          if (this.client === client && !this.closed) this.heartbeat(client);
        },
        (error: unknown) => this.lost(client, error),
      );
    }, heartbeatMs);
    this.heartbeatTimer.unref();
  }

  /** Closes a listening connection (it goes back to the pool as broken, so it is never reused). */
  private giveBack(client: pg.PoolClient): void {
    if (this.givenBack.has(client)) return;
    this.givenBack.add(client);
    client.release(true);
  }

  private heard(payload: string | undefined): void {
    const announcement = readAnnouncement(payload);
    if (!announcement) {
      // Another process's bug or version: which entries it changed is unknown, so every cache starts empty.
      this.log?.warn({ payload }, 'heard an announcement that does not read: every cache starts empty');
      for (const cache of this.caches.values()) cache.setCaching(true);
      return;
    }
    if (announcement.from === this.id) return;
    const cache = this.caches.get(announcement.cache);
    if (!cache) return;
    if (announcement.change === undefined) cache.setCaching(true);
    else cache.forget(announcement.change);
  }

  private lost(client: pg.PoolClient, error?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
    this.giveBack(client);
    this.failed(error);
  }

  /** Not listening (any more): caches off, and another attempt scheduled. */
  private failed(error: unknown): void {
    const wasListening = this.connected;
    this.connected = false;
    for (const cache of this.caches.values()) cache.setCaching(false);
    if (this.closed) return;
    if (wasListening) this.log?.warn({ err: error }, 'lost the connection that hears of other bot processes’ changes: caches off until it is back');
    else if (!this.everListened && this.failures === 0) this.log?.warn({ err: error }, 'could not listen for other bot processes’ changes: caches off until it can');
    const pause = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** this.failures++) * (0.5 + Math.random() / 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, pause);
    this.reconnectTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.connected = false;
    const client = this.client;
    this.client = null;
    for (const cache of this.caches.values()) cache.setCaching(false);
    if (client) this.giveBack(client);
  }
}
