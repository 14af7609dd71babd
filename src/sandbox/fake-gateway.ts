// The fake gateway: a WebSocket endpoint (`/gateway`, on the fake's HTTP server) speaking enough of Discord's
// gateway protocol for discord.js: HELLO, heartbeats, IDENTIFY → READY + one GUILD_CREATE per guild, RESUME →
// RESUMED, REQUEST_GUILD_MEMBERS → GUILD_MEMBERS_CHUNK, and dispatches (INTERACTION_CREATE, GUILD_ROLE_CREATE, and
// GUILD_CREATE for a guild created while the bot is connected, as when a bot is added to a server).
// Sessions outlive their connections as on Discord: when a connection drops without a clean close (drop(), or a
// client that vanished), dispatches keep their sequence numbers and wait in the session; a RESUME with the last
// sequence the client saw replays every later one, then RESUMED. A client's clean close (1000/1001) ends it.
// Sharding as on Discord: the fake has a shard count (1 by default); IDENTIFY names `shard: [id, count]` (closed
// with 4011 Sharding required when the fake has more than one shard and the client asks for fewer or none, 4010
// Invalid shard for any other count or an id out of range), READY lists only that shard's guilds, and each guild's
// events go only to the session of its shard, `(guild_id >> 22) % count` (shardOf).
// Session starts as on Discord: GET /gateway/bot's session_start_limit counts the IDENTIFYs of the last 24 hours
// (1000 a day, `sessionStartsPerDay`); one past it is refused. With `paceIdentifies`, IDENTIFYs of one bucket
// (shard_id % max_concurrency) must also come 5 s apart. Either refusal is recorded as a violation and answered as
// Discord answers an IDENTIFY it does not start a session for: Invalid Session (op 9, not resumable), so the client
// must wait and try again; it starts no session and uses none of the day's starts.
// Payloads go out as JSON text, or with `compress=zlib-stream` as one shared deflate stream per connection
// flushed with Z_SYNC_FLUSH after each payload (what Discord does; discord.js asks for it when zlib-sync is
// installed).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayOpcodes } from 'discord-api-types/v10';
import type { ApplicationFlags, GatewayDispatchPayload, GatewayReadyDispatchData } from 'discord-api-types/v10';
import { WebSocketServer, WebSocket } from 'ws';
import type { FakeState, Json } from './fake-state.js';

export const GATEWAY_PATH = '/gateway';

/**
 * The events the fake sends, and the data of each, as discord-api-types gives them (Discord's OpenAPI spec covers
 * HTTP only): every dispatch's `d` is checked by tsc against its event's type (`dispatch`, `broadcast`,
 * `dispatchToGuild`). RESUMED alone is sent as Discord sends it, `{ _trace }`, where discord-api-types has no data.
 */
export type DispatchEvent = Exclude<GatewayDispatchPayload['t'], GatewayDispatchEvents.Resumed>;
export type DispatchData<T extends DispatchEvent> = Extract<GatewayDispatchPayload, { t: T }>['d'];
const HEARTBEAT_INTERVAL = 41_250;
const SYNC_FLUSH_SUFFIX = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** A dispatch as sent (or due) on a session: what a RESUME replays. */
interface SentDispatch {
  s: number;
  t: string;
  d: unknown;
}

interface Session {
  id: string;
  /** The shard this session runs: [id, count]. */
  shard: [number, number];
  seq: number;
  /** The latest dispatches, oldest first (at most HISTORY_LIMIT): a RESUME from further back is refused. */
  history: SentDispatch[];
  /** Where the session's dispatches go now; undefined or dead while the client is away. */
  connection?: GatewayConnection;
  /** False once the client closed cleanly, or the session was invalidated: a RESUME then gets INVALID_SESSION. */
  resumable: boolean;
  /** Date.now() when its connection went away, if it did. */
  droppedAt?: number;
}

/** How the bot used the gateway, for tests that must tell a RESUME from a new IDENTIFY. */
export interface GatewayCounts {
  identifies: number;
  resumes: number;
  /** Dispatches sent again because a RESUME asked for them. */
  replayed: number;
  /** Connections cut by drop(). */
  drops: number;
  /** RESUMEs refused with INVALID_SESSION. */
  invalidSessions: number;
  /** IDENTIFYs refused for their shard (4010 Invalid shard, 4011 Sharding required). */
  shardRefusals: number;
  /** Sessions a client ended by closing with 1000 or 1001 (`client.destroy()`): its interactions go elsewhere now. */
  goodbyes: number;
  /** IDENTIFYs refused for the session start limit or, with `paceIdentifies`, for coming too soon in their bucket. */
  identifyRefusals: number;
}

export interface FakeGatewayOptions {
  /** How many shards the fake expects (what GET /gateway/bot answers); 1 = unsharded. */
  shards?: number;
  /** GET /gateway/bot's max_concurrency: the IDENTIFY buckets are shard_id % maxConcurrency. */
  maxConcurrency?: number;
  /** Session starts Discord allows in 24 hours (default 1000, Discord's for most bots). */
  sessionStartsPerDay?: number;
  /** Refuse an IDENTIFY less than 5 s after the previous one of its bucket (default: with more than one shard, see FakeDiscordOptions). */
  paceIdentifies?: boolean;
}

/** Discord's rule: the shard a guild's events go to. */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/** Discord's limit of guilds on one shard: more, and IDENTIFY is refused with 4011 Sharding required. */
const MAX_GUILDS_PER_SHARD = 2500;

const HISTORY_LIMIT = 1000;
const SESSION_STARTS_PER_DAY = 1000;
const SESSION_START_WINDOW_MS = 24 * 60 * 60_000;
/** Discord's pace: one IDENTIFY per bucket per 5 s. */
const IDENTIFY_INTERVAL_MS = 5_000;
/** How long a dropped session waits for its client to resume (Discord's are resumable for minutes too). */
const RESUMABLE_FOR_MS = 120_000;

class GatewayConnection {
  session?: Session;
  identified = false;
  private deflate?: zlib.Deflate;
  private pending: Buffer[] = [];

  constructor(readonly ws: WebSocket, compress: boolean) {
    if (compress) {
      this.deflate = zlib.createDeflate({ flush: zlib.constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 });
      this.deflate.on('data', (chunk: Buffer) => {
        this.pending.push(chunk);
        const joined = Buffer.concat(this.pending);
        // Each payload's output ends with the sync-flush marker; that is where one message ends.
        if (joined.length >= 4 && joined.subarray(-4).equals(SYNC_FLUSH_SUFFIX)) {
          this.pending = [];
          if (this.ws.readyState === WebSocket.OPEN) this.ws.send(joined);
        }
      });
    }
  }

  get live(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(payload: Json): void {
    if (!this.live) return;
    const text = JSON.stringify(payload);
    if (this.deflate) this.deflate.write(text);
    else this.ws.send(text);
  }

  close(): void {
    this.deflate?.destroy();
    this.ws.terminate();
  }
}

export class FakeGateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  private readonly connections = new Set<GatewayConnection>();
  /** Identified (or resumed) connections, newest last: interactions go to the newest live one. */
  private readonly identified: GatewayConnection[] = [];
  private readonly sessions = new Map<string, Session>();
  /** Per shard id, the session most recently identified or resumed: where dispatches wait while its client is away. */
  private readonly latest = new Map<number, Session>();
  private readyWaiters: (() => void)[] = [];
  /** Date.now() of each IDENTIFY in the current 24 h window (session_start_limit). */
  private readonly identifyTimes: number[] = [];
  /** Date.now() of the latest IDENTIFY of each bucket (shard_id % max_concurrency). */
  private readonly lastIdentifyOfBucket = new Map<number, number>();
  private liveWaiters: (() => void)[] = [];
  readonly counts: GatewayCounts = { identifies: 0, resumes: 0, replayed: 0, drops: 0, invalidSessions: 0, shardRefusals: 0, goodbyes: 0, identifyRefusals: 0 };
  /** How many shards the fake expects (what GET /gateway/bot answers); 1 = unsharded. */
  readonly shardCount: number;
  readonly maxConcurrency: number;
  readonly sessionStartsPerDay: number;
  private readonly paceIdentifies: boolean;

  constructor(
    private readonly state: FakeState,
    private readonly gatewayUrl: () => string,
    options: FakeGatewayOptions = {},
  ) {
    this.shardCount = options.shards ?? 1;
    this.maxConcurrency = options.maxConcurrency ?? 1;
    this.sessionStartsPerDay = options.sessionStartsPerDay ?? SESSION_STARTS_PER_DAY;
    this.paceIdentifies = options.paceIdentifies ?? this.shardCount > 1;
    for (const [name, value] of [['shards', this.shardCount], ['maxConcurrency', this.maxConcurrency], ['sessionStartsPerDay', this.sessionStartsPerDay]] as const) {
      if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1 (got ${value})`);
    }
  }

  /** The shard of a guild under the fake's shard count. */
  shardOf(guildId: string): number {
    return shardOf(guildId, this.shardCount);
  }

  /** Takes over an HTTP upgrade for the gateway path; returns false for any other path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== GATEWAY_PATH) return false;
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, url.searchParams));
    return true;
  }

  private accept(ws: WebSocket, query: URLSearchParams): void {
    const compress = query.get('compress') === 'zlib-stream';
    const connection = new GatewayConnection(ws, compress);
    this.connections.add(connection);
    ws.on('close', (code: number) => this.onClose(connection, code));
    ws.on('error', () => connection.close());
    const encoding = query.get('encoding') ?? 'json';
    if (encoding !== 'json') {
      ws.close(GatewayCloseCodes.DecodeError, 'The fake gateway only speaks encoding=json.');
      return;
    }
    ws.on('message', (data, isBinary) => this.onMessage(connection, data as Buffer, isBinary));
    connection.send({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: HEARTBEAT_INTERVAL, _trace: ['["fake-discord",{}]'] }, s: null, t: null });
  }

  private onClose(connection: GatewayConnection, code: number): void {
    this.connections.delete(connection);
    const index = this.identified.indexOf(connection);
    if (index >= 0) this.identified.splice(index, 1);
    const session = connection.session;
    if (!session || session.connection !== connection) return;
    session.connection = undefined;
    session.droppedAt = Date.now();
    // A client that says goodbye (1000, 1001) ends its session on Discord; any other close leaves it resumable.
    if (code === 1000 || code === 1001) {
      this.endSession(session);
      this.counts.goodbyes++;
    }
  }

  private endSession(session: Session): void {
    session.resumable = false;
    session.history = [];
    this.sessions.delete(session.id);
    if (this.latest.get(session.shard[0]) === session) this.latest.delete(session.shard[0]);
  }

  private onMessage(connection: GatewayConnection, data: Buffer, isBinary: boolean): void {
    let payload: { op?: number; d?: Json | null };
    try {
      payload = JSON.parse(isBinary ? data.toString('utf8') : data.toString()) as typeof payload;
    } catch {
      connection.ws.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
      return;
    }
    const d = payload.d ?? {};
    switch (payload.op) {
      case GatewayOpcodes.Heartbeat:
        connection.send({ op: GatewayOpcodes.HeartbeatAck, d: null, s: null, t: null });
        return;
      case GatewayOpcodes.Identify:
        this.identify(connection, d);
        return;
      case GatewayOpcodes.Resume:
        this.resume(connection, d);
        return;
      case GatewayOpcodes.RequestGuildMembers:
        this.requestMembers(connection, d);
        return;
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
        return;
      default:
        connection.ws.close(GatewayCloseCodes.UnknownOpcode, 'Unknown opcode.');
    }
  }

  private tokenOk(token: unknown): boolean {
    return typeof token === 'string' && token.replace(/^Bot\s+/i, '') === this.state.token;
  }

  /** Gives the session the next sequence number, keeps the event for a RESUME, and sends it if its client is here. */
  private dispatch<T extends DispatchEvent>(session: Session, t: T, d: DispatchData<T>): void {
    this.send(session, t, d);
  }

  private send(session: Session, t: string, d: unknown): void {
    session.seq++;
    session.history.push({ s: session.seq, t, d });
    if (session.history.length > HISTORY_LIMIT) session.history.shift();
    if (session.connection?.live) session.connection.send({ op: GatewayOpcodes.Dispatch, t, s: session.seq, d });
  }

  private attach(connection: GatewayConnection, session: Session): void {
    const previous = session.connection;
    if (previous && previous !== connection) previous.session = undefined;
    session.connection = connection;
    session.droppedAt = undefined;
    connection.session = session;
    connection.identified = true;
    this.identified.push(connection);
    this.latest.set(session.shard[0], session);
  }

  /**
   * The shard an IDENTIFY asks for, or why it is refused: Discord closes with 4011 when the bot must shard (more
   * guilds than one shard may hold: here, whenever the fake has more shards than the client asks for) and with
   * 4010 for a shard that cannot be (id out of range, or a count other than the fake's).
   */
  private shardOfIdentify(d: Json): [number, number] | { code: number; reason: string } {
    const given = d.shard ?? undefined;
    if (given !== undefined && (!Array.isArray(given) || given.length !== 2 || !given.every((n) => Number.isInteger(n)))) {
      return { code: GatewayCloseCodes.InvalidShard, reason: 'Invalid shard.' };
    }
    const [id, count] = (given as [number, number] | undefined) ?? [0, 1];
    if (count < 1 || id < 0 || id >= count) return { code: GatewayCloseCodes.InvalidShard, reason: 'Invalid shard.' };
    if (count < this.shardCount) return { code: GatewayCloseCodes.ShardingRequired, reason: 'Sharding required.' };
    if (count !== this.shardCount) return { code: GatewayCloseCodes.InvalidShard, reason: 'Invalid shard.' };
    const guilds = [...this.state.guilds.keys()].filter((g) => this.shardOf(g) === id).length;
    if (guilds > MAX_GUILDS_PER_SHARD) return { code: GatewayCloseCodes.ShardingRequired, reason: 'Sharding required.' };
    return [id, count];
  }

  private identify(connection: GatewayConnection, d: Json): void {
    if (connection.identified) {
      connection.ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
      return;
    }
    if (!this.tokenOk(d.token)) {
      this.state.recordViolation('gateway IDENTIFY: invalid bot token (closed with 4004 Authentication failed)');
      connection.ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
      return;
    }
    // Sessions whose client never came back within the window are gone on Discord too; forget their history.
    for (const old of this.sessions.values()) {
      if (!old.connection?.live && old.droppedAt !== undefined && Date.now() - old.droppedAt > RESUMABLE_FOR_MS) this.endSession(old);
    }
    const shard = this.shardOfIdentify(d);
    if (!Array.isArray(shard)) {
      this.counts.shardRefusals++;
      this.state.recordViolation(
        `gateway IDENTIFY: shard ${JSON.stringify(d.shard ?? null)} refused, the fake runs ${this.shardCount} shard(s) (closed with ${shard.code} ${shard.reason.replace(/\.$/, '')})`,
      );
      connection.ws.close(shard.code, shard.reason);
      return;
    }
    if (this.refusedStart(connection, shard[0])) return;
    this.identifyTimes.push(Date.now());
    this.lastIdentifyOfBucket.set(shard[0] % this.maxConcurrency, Date.now());
    const session: Session = { id: randomBytes(16).toString('hex'), shard, seq: 0, history: [], resumable: true };
    this.sessions.set(session.id, session);
    this.attach(connection, session);
    this.counts.identifies++;
    const guilds = [...this.state.guilds.values()].filter((g) => this.shardOf(g.id) === shard[0]);
    const ready: GatewayReadyDispatchData = {
      v: 10,
      user: { ...this.state.apiUser(this.state.botUser), verified: true, mfa_enabled: false, email: null },
      application: { id: this.state.applicationId, flags: 0 as ApplicationFlags, flags_new: '0' },
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: this.gatewayUrl(),
      shard,
    };
    // What Discord sends a bot in READY besides, which discord-api-types does not list.
    const unlisted = {
      user_settings: {},
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      session_type: 'normal',
      _trace: ['["fake-discord",{}]'],
    };
    this.dispatch(session, GatewayDispatchEvents.Ready, { ...ready, ...unlisted });
    for (const guild of guilds) this.dispatch(session, GatewayDispatchEvents.GuildCreate, guild.gatewayGuild());
    this.wake();
  }

  /**
   * Whether Discord would start no session for this IDENTIFY: the day's session starts are used up, or (with
   * `paceIdentifies`) its bucket identified less than 5 s ago. Recorded, and answered with Invalid Session.
   */
  private refusedStart(connection: GatewayConnection, shard: number): boolean {
    const limit = this.sessionStartLimit();
    const bucket = shard % this.maxConcurrency;
    const since = Date.now() - (this.lastIdentifyOfBucket.get(bucket) ?? -Infinity);
    let problem: string | null = null;
    if (limit.remaining <= 0) {
      problem = `gateway IDENTIFY: session start limit exhausted (shard ${shard}: ${limit.total} sessions started in 24 h; resets in ${Math.ceil(limit.reset_after / 1000)} s)`;
    } else if (this.paceIdentifies && since < IDENTIFY_INTERVAL_MS) {
      problem = `gateway IDENTIFY: shard ${shard}'s bucket identified again after ${since} ms (< ${IDENTIFY_INTERVAL_MS})`;
    }
    if (!problem) return false;
    this.counts.identifyRefusals++;
    this.state.recordViolation(`${problem}; answered with Invalid Session`);
    connection.send({ op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
    return true;
  }

  private resume(connection: GatewayConnection, d: Json): void {
    const session = typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    const seq = typeof d.seq === 'number' ? d.seq : 0;
    const oldest = session?.history[0]?.s ?? (session ? session.seq + 1 : 0);
    // Events the client missed that the history no longer holds cannot be replayed: Discord refuses such a RESUME.
    if (!this.tokenOk(d.token) || !session || !session.resumable || seq > session.seq || seq + 1 < oldest) {
      this.counts.invalidSessions++;
      connection.send({ op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null }); // invalid session: the client identifies anew
      return;
    }
    this.attach(connection, session);
    this.counts.resumes++;
    const missed = session.history.filter((event) => event.s > seq);
    for (const event of missed) connection.send({ op: GatewayOpcodes.Dispatch, t: event.t, s: event.s, d: event.d });
    this.counts.replayed += missed.length;
    this.send(session, GatewayDispatchEvents.Resumed, { _trace: ['["fake-discord",{}]'] });
    this.wake();
  }

  private wake(): void {
    const waiters = [...this.readyWaiters, ...this.liveWaiters];
    this.readyWaiters = [];
    this.liveWaiters = [];
    for (const wake of waiters) wake();
  }

  private requestMembers(connection: GatewayConnection, d: Json): void {
    const session = connection.session;
    if (!session) return;
    // guild_id is one id or, in older clients, a list; a guild the bot is not in gets no chunk, as on Discord.
    const guildIds = Array.isArray(d.guild_id) ? d.guild_id.map(String) : [String(d.guild_id)];
    const query = typeof d.query === 'string' ? d.query.toLowerCase() : '';
    const ids = Array.isArray(d.user_ids) ? d.user_ids.map(String) : typeof d.user_ids === 'string' ? [d.user_ids] : undefined;
    const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : Infinity;
    for (const guildId of guildIds) {
      const guild = this.state.guilds.get(guildId);
      // Another shard's guild is not this session's: Discord sends it nothing.
      if (!guild || this.shardOf(guild.id) !== session.shard[0]) continue;
      const members = [...guild.members.keys()]
        .filter((id) => (ids ? ids.includes(id) : this.state.user(id).username.toLowerCase().startsWith(query)))
        .slice(0, limit)
        .map((id) => guild.apiMember(id));
      this.dispatch(session, GatewayDispatchEvents.GuildMembersChunk, {
        guild_id: guild.id,
        members,
        chunk_index: 0,
        chunk_count: 1,
        ...(ids ? { not_found: ids.filter((id) => !guild.members.has(id)) } : {}),
        ...(typeof d.nonce === 'string' ? { nonce: d.nonce } : {}),
      });
    }
  }

  /** A session whose client is away but may still resume. */
  private waiting(session: Session | undefined): session is Session {
    return (
      session !== undefined &&
      session.resumable &&
      !session.connection?.live &&
      session.droppedAt !== undefined &&
      Date.now() - session.droppedAt <= RESUMABLE_FOR_MS
    );
  }

  /**
   * Sends a guild's event (e.g. GUILD_ROLE_CREATE, GUILD_CREATE) to every session of the guild's shard that has a
   * client, or may get one back.
   */
  broadcast<T extends DispatchEvent>(guildId: string, t: T, d: DispatchData<T>): void {
    const shard = this.shardOf(guildId);
    for (const session of this.sessions.values()) {
      if (session.shard[0] === shard && (session.connection?.live || this.waiting(session))) this.dispatch(session, t, d);
    }
  }

  /** Where a guild's next event goes: its shard's newest live session, else its shard's latest one while it may resume. */
  private sessionFor(guildId: string): Session | undefined {
    const shard = this.shardOf(guildId);
    const connection = [...this.identified].reverse().find((c) => c.live && c.session?.shard[0] === shard);
    const latest = this.latest.get(shard);
    return connection?.session ?? (this.waiting(latest) ? latest : undefined);
  }

  /**
   * Sends a guild's event to the newest live identified connection of the guild's shard or, while that shard's
   * client is away, keeps it in its latest session for the RESUME. Returns the session's id and shard; undefined
   * if there is neither (no client runs that shard).
   */
  dispatchToGuild<T extends DispatchEvent>(guildId: string, t: T, d: DispatchData<T>): { sessionId: string; shard: number } | undefined {
    const session = this.sessionFor(guildId);
    if (!session) return undefined;
    this.dispatch(session, t, d);
    return { sessionId: session.id, shard: session.shard[0] };
  }

  get ready(): boolean {
    return this.identified.some((c) => c.live && c.session);
  }

  /** A client runs the guild's shard: connected, or away on a session it may still resume (what it is sent then waits for it). */
  canDeliver(guildId: string): boolean {
    return this.sessionFor(guildId) !== undefined;
  }

  /** Some shard has a client, connected or away on a session it may still resume. */
  get canDeliverAny(): boolean {
    return this.ready || [...this.latest.values()].some((session) => this.waiting(session));
  }

  /** The shards that have a live identified client now, ascending. */
  liveShards(): number[] {
    return [...new Set(this.identified.filter((c) => c.live && c.session).map((c) => c.session!.shard[0]))].sort((a, b) => a - b);
  }

  /**
   * GET /gateway/bot's `session_start_limit`, as Discord counts it: `sessionStartsPerDay` (1000) IDENTIFYs per 24
   * hours from the first in the window; `reset_after` is the ms until the window ends (0 when none was started in one).
   */
  sessionStartLimit(): { total: number; remaining: number; reset_after: number; max_concurrency: number } {
    const now = Date.now();
    while (this.identifyTimes.length > 0 && now - this.identifyTimes[0]! >= SESSION_START_WINDOW_MS) this.identifyTimes.shift();
    const first = this.identifyTimes[0];
    return {
      total: this.sessionStartsPerDay,
      remaining: Math.max(0, this.sessionStartsPerDay - this.identifyTimes.length),
      reset_after: first === undefined ? 0 : SESSION_START_WINDOW_MS - (now - first),
      max_concurrency: this.maxConcurrency,
    };
  }

  /**
   * Cuts every identified connection: destroys the socket (the client sees 1006), or closes it with `code`.
   * The sessions stay resumable unless `invalidateSession` (or a code that ends a session: 1000, 1001).
   */
  drop(options: { code?: number; invalidateSession?: boolean } = {}): number {
    const cut = this.identified.filter((c) => c.live);
    for (const connection of cut) {
      const session = connection.session;
      if (session && session.connection === connection) {
        // Taken now, not on the close event: an interaction made right after drop() must wait for the RESUME.
        session.connection = undefined;
        session.droppedAt = Date.now();
        if (options.invalidateSession) this.endSession(session);
      }
      connection.session = undefined;
      if (options.code === undefined) connection.close();
      else connection.ws.close(options.code, 'Dropped by the fake Discord.');
      this.counts.drops++;
    }
    return cut.length;
  }

  waitForReady(timeoutMs: number): Promise<void> {
    return this.waitFor(this.readyWaiters, timeoutMs, `no client identified on the fake gateway within ${timeoutMs} ms`);
  }

  /** Resolves once a client is connected (after an IDENTIFY or a RESUME); at once if one is. */
  waitForLive(timeoutMs: number): Promise<void> {
    return this.waitFor(this.liveWaiters, timeoutMs, `no client connected to the fake gateway within ${timeoutMs} ms`);
  }

  private waitFor(list: (() => void)[], timeoutMs: number, failure: string): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const at = list.indexOf(wake);
        if (at >= 0) list.splice(at, 1);
        reject(new Error(failure));
      }, timeoutMs);
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      list.push(wake);
    });
  }

  close(): void {
    for (const connection of this.connections) connection.close();
    this.connections.clear();
    this.identified.length = 0;
    this.sessions.clear();
    this.latest.clear();
    this.wss.close();
  }
}
