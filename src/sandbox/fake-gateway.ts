// The fake gateway: a WebSocket endpoint (`/gateway`, on the fake's HTTP server) speaking enough of Discord's
// gateway protocol for discord.js: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME → RESUMED,
// REQUEST_GUILD_MEMBERS → GUILD_MEMBERS_CHUNK, and dispatches (INTERACTION_CREATE, GUILD_ROLE_CREATE).
// Payloads go out as JSON text, or with `compress=zlib-stream` as one shared deflate stream per connection
// flushed with Z_SYNC_FLUSH after each payload (what Discord does; discord.js asks for it when zlib-sync is
// installed).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { WebSocketServer, WebSocket } from 'ws';
import type { FakeState, Json } from './fake-state.js';

export const GATEWAY_PATH = '/gateway';
const HEARTBEAT_INTERVAL = 41_250;
const SYNC_FLUSH_SUFFIX = Buffer.from([0x00, 0x00, 0xff, 0xff]);

interface Session {
  id: string;
  seq: number;
}

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

  dispatch(t: string, d: unknown): void {
    if (!this.session) return;
    this.session.seq++;
    this.send({ op: 0, t, s: this.session.seq, d });
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
  private readyWaiters: (() => void)[] = [];

  constructor(
    private readonly state: FakeState,
    private readonly gatewayUrl: () => string,
  ) {}

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
    ws.on('close', () => {
      this.connections.delete(connection);
      const index = this.identified.indexOf(connection);
      if (index >= 0) this.identified.splice(index, 1);
    });
    ws.on('error', () => connection.close());
    const encoding = query.get('encoding') ?? 'json';
    if (encoding !== 'json') {
      ws.close(4002, 'The fake gateway only speaks encoding=json.');
      return;
    }
    ws.on('message', (data, isBinary) => this.onMessage(connection, data as Buffer, isBinary));
    connection.send({ op: 10, d: { heartbeat_interval: HEARTBEAT_INTERVAL, _trace: ['["fake-discord",{}]'] }, s: null, t: null });
  }

  private onMessage(connection: GatewayConnection, data: Buffer, isBinary: boolean): void {
    let payload: { op?: number; d?: Json | null };
    try {
      payload = JSON.parse(isBinary ? data.toString('utf8') : data.toString()) as typeof payload;
    } catch {
      connection.ws.close(4002, 'Error while decoding payload.');
      return;
    }
    const d = payload.d ?? {};
    switch (payload.op) {
      case 1: // heartbeat
        connection.send({ op: 11, d: null, s: null, t: null });
        return;
      case 2:
        this.identify(connection, d);
        return;
      case 6:
        this.resume(connection, d);
        return;
      case 8:
        this.requestMembers(connection, d);
        return;
      case 3: // presence update
      case 4: // voice state update
        return;
      default:
        connection.ws.close(4001, 'Unknown opcode.');
    }
  }

  private tokenOk(token: unknown): boolean {
    return typeof token === 'string' && token.replace(/^Bot\s+/i, '') === this.state.token;
  }

  private identify(connection: GatewayConnection, d: Json): void {
    if (connection.identified) {
      connection.ws.close(4005, 'Already authenticated.');
      return;
    }
    if (!this.tokenOk(d.token)) {
      this.state.recordViolation('gateway IDENTIFY: invalid bot token (closed with 4004 Authentication failed)');
      connection.ws.close(4004, 'Authentication failed.');
      return;
    }
    const session: Session = { id: randomBytes(16).toString('hex'), seq: 0 };
    this.sessions.set(session.id, session);
    connection.session = session;
    connection.identified = true;
    this.identified.push(connection);
    const shard = Array.isArray(d.shard) ? d.shard : [0, 1];
    connection.dispatch('READY', {
      v: 10,
      user: { ...this.state.apiUser(this.state.botUser), verified: true, mfa_enabled: false, email: null },
      user_settings: {},
      application: { id: this.state.applicationId, flags: 0 },
      guilds: [{ id: this.state.guildId, unavailable: true }],
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: this.gatewayUrl(),
      shard,
      _trace: ['["fake-discord",{}]'],
    });
    connection.dispatch('GUILD_CREATE', this.state.gatewayGuild());
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }

  private resume(connection: GatewayConnection, d: Json): void {
    const session = typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    if (!this.tokenOk(d.token) || !session) {
      connection.send({ op: 9, d: false, s: null, t: null }); // invalid session: the client identifies anew
      return;
    }
    // Events sent while the client was away are not replayed: the fake keeps no history of dispatches.
    for (const other of this.identified) if (other.session === session && other !== connection) other.session = undefined;
    connection.session = session;
    connection.identified = true;
    this.identified.push(connection);
    connection.dispatch('RESUMED', { _trace: ['["fake-discord",{}]'] });
  }

  private requestMembers(connection: GatewayConnection, d: Json): void {
    const query = typeof d.query === 'string' ? d.query.toLowerCase() : '';
    const ids = Array.isArray(d.user_ids) ? d.user_ids.map(String) : typeof d.user_ids === 'string' ? [d.user_ids] : undefined;
    const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : Infinity;
    const members = [...this.state.members.keys()]
      .filter((id) => (ids ? ids.includes(id) : this.state.user(id).username.toLowerCase().startsWith(query)))
      .slice(0, limit)
      .map((id) => this.state.apiMember(id));
    connection.dispatch('GUILD_MEMBERS_CHUNK', {
      guild_id: this.state.guildId,
      members,
      chunk_index: 0,
      chunk_count: 1,
      ...(ids ? { not_found: ids.filter((id) => !this.state.members.has(id)) } : {}),
      ...(d.nonce !== undefined ? { nonce: d.nonce } : {}),
    });
  }

  /** Sends an event to every identified connection (e.g. GUILD_ROLE_CREATE). */
  broadcast(t: string, d: unknown): void {
    for (const connection of this.identified) if (connection.live) connection.dispatch(t, d);
  }

  /** Sends an event to the newest live identified connection; false if there is none. */
  dispatchToLatest(t: string, d: unknown): boolean {
    const connection = [...this.identified].reverse().find((c) => c.live && c.session);
    if (!connection) return false;
    connection.dispatch(t, d);
    return true;
  }

  get ready(): boolean {
    return this.identified.some((c) => c.live);
  }

  waitForReady(timeoutMs: number): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== wake);
        reject(new Error(`no client identified on the fake gateway within ${timeoutMs} ms`));
      }, timeoutMs);
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.readyWaiters.push(wake);
    });
  }

  close(): void {
    for (const connection of this.connections) connection.close();
    this.connections.clear();
    this.identified.length = 0;
    this.wss.close();
  }
}
