// An in-process fake of Discord on 127.0.0.1, for end-to-end tests and the bot's no-token sandbox mode.
//
// One node:http server carries
//   - the Discord REST API under /api/v10 (fake-rest.ts), for an unmodified discord.js Client whose
//     `rest.api` is `${fake.restApi}` and for `new REST({ api: fake.restApi })`;
//   - the gateway WebSocket on /gateway (fake-gateway.ts), announced by GET /api/v10/gateway/bot;
//   - files users and the bot attached, on /attachments/<id>/<filename>;
//   - the sandbox JSON API that acts as users: POST /api/interactions, GET /api/messages, GET /api/commands,
//     GET /api/users, GET /api/server, GET /api/violations, plus whatever route() adds (documented in
//     docs/sandbox.md); requests take a `guild` to act in, or look at, a guild other than the default one;
//   - GET /api/events, a live feed (server-sent events) of the channel's messages for the sandbox page.
// Faults on demand (docs/sandbox.md, "Faults"): `faults` answers chosen REST calls 5xx or 429 without carrying them
// out, and dropGateway() cuts the bot's gateway connection so it resumes (dispatches it missed are replayed).
// Shards (options.shards, default 1): each guild's events go only to the client running its shard, and an answer to an
// interaction from a process naming other shards in its User-Agent (`shards/<ids>`) is a violation (fake-gateway.ts,
// fake-rest.ts checkShard).
// The fake never connects anywhere itself and listens on 127.0.0.1 only.
import http from 'node:http';
import { ApplicationCommandType, ApplicationIntegrationType, GatewayDispatchEvents, InteractionContextType, Locale } from 'discord-api-types/v10';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { FakeState, permissionBits } from './fake-state.js';
import type { Json, MessageChange, MessageRecord } from './fake-state.js';
import { FakeGateway, GATEWAY_PATH } from './fake-gateway.js';
import type { GatewayCounts } from './fake-gateway.js';
import { FakeFaults } from './fake-faults.js';
import { FakeRest } from './fake-rest.js';
import type { FakeTraffic, GlobalLimitHit } from './fake-traffic.js';
import { refuseForeignRequest, refuseForeignUpgrade } from './http-guard.js';
import { InteractionTracker } from './interaction-tracker.js';
import type { InteractionRecord } from './interaction-tracker.js';
import { buildInteraction, interactionPayload } from './interaction-builder.js';
import type { InteractionCommon } from './interaction-builder.js';
import type {
  FakeDiscordOptions,
  FakeGuildInfo,
  FakeInteractionShard,
  FakeMessage,
  FakeRole,
  FakeUser,
  SandboxInteractionRequest,
  SandboxInteractionResult,
} from './types.js';
import type { ShardCounts } from './fake-rest.js';
import { SandboxRequestError } from './types.js';

export type {
  FakeDiscordOptions,
  FakeGuildInfo,
  FakeInteractionShard,
  FakeMessage,
  FakeRole,
  FakeUser,
  SandboxAttachment,
  SandboxInteractionRequest,
  SandboxInteractionResult,
  SandboxResponse,
} from './types.js';
export { SandboxRequestError } from './types.js';
export { takeSpecViolations } from './fake-state.js';
export type { FaultCounts, FaultHandle, FaultRule, FaultTarget, InjectedFault } from './fake-faults.js';
export type { GatewayCounts } from './fake-gateway.js';
export { shardOf } from './fake-gateway.js';
export type { ShardCounts } from './fake-rest.js';
export type { GlobalLimitHit, TrafficRequest, TrafficSummary } from './fake-traffic.js';
export { callerShards } from './fake-rest.js';

/**
 * What a route() handler may return:
 * - any JSON value → 200 application/json (undefined → 204);
 * - `{ __html: string }` → 200 text/html (e.g. the sandbox page on GET /);
 * - `{ __body: string | Buffer, __contentType: string, __status?: number }` → that, as is (scripts, styles).
 * Throwing a SandboxRequestError answers its status (default 400) with `{ error: message }`; any other
 * error answers 500 `{ error: message }`.
 */
export type RouteHandler = (req: { query: URLSearchParams; body: unknown }) => Promise<unknown> | unknown;

const DEFAULT_APPLICATION_ID = '1180000000000000001';
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const RESERVED_PREFIXES = ['/api/v', GATEWAY_PATH, '/attachments/', '/api/events'];
const EVENTS_PATH = '/api/events';
const EVENTS_HEARTBEAT_MS = 15_000;

/** One open GET /api/events: the messages of its channel that its user (if any) may see. */
interface EventStream {
  res: http.ServerResponse;
  channelId: string;
  userId?: string;
}

export class FakeDiscord {
  readonly token: string;
  readonly applicationId: string;
  private readonly settleMs: number;
  private readonly responseTimeoutMs: number;
  private readonly botSaysWhenDone: boolean;
  private readonly handledTimeoutMs: number;
  private readonly requestedPort: number;
  private readonly state: FakeState;
  private readonly tracker: InteractionTracker;
  private readonly gateway: FakeGateway;
  private readonly rest: FakeRest;
  /**
   * REST faults to inject: `fake.faults.add({ target: 'callback', status: 500, times: 1 })`,
   * `fake.faults.add({ status: 429, retryAfterMs: 300, probability: 0.2 })`; counts in `fake.faults.stats`.
   */
  readonly faults: FakeFaults;
  private readonly customRoutes = new Map<string, RouteHandler>();
  private readonly eventStreams = new Set<EventStream>();
  private server?: http.Server;
  private listeningPort = 0;

  constructor(options: FakeDiscordOptions = {}) {
    this.token = options.token ?? 'sandbox-token';
    this.applicationId = options.applicationId ?? DEFAULT_APPLICATION_ID;
    this.settleMs = options.settleMs ?? 40;
    this.responseTimeoutMs = options.responseTimeoutMs ?? 5000;
    this.botSaysWhenDone = options.botSaysWhenDone ?? false;
    this.handledTimeoutMs = options.handledTimeoutMs ?? 60_000;
    this.requestedPort = options.port ?? 0;
    this.state = new FakeState({ applicationId: this.applicationId, botUsername: options.botUsername ?? 'Tac Talk Bot', token: this.token });
    this.tracker = new InteractionTracker(options.interactionTokenTtlMs ?? 15 * 60_000);
    const gatewayUrl = (): string => `ws://127.0.0.1:${this.listeningPort}${GATEWAY_PATH}`;
    this.gateway = new FakeGateway(this.state, gatewayUrl, {
      shards: options.shards,
      maxConcurrency: options.maxConcurrency,
      sessionStartsPerDay: options.sessionStartsPerDay,
      paceIdentifies: options.paceIdentifies,
    });
    this.faults = new FakeFaults(options.faultSeed);
    this.rest = new FakeRest(this.state, this.tracker, {
      interactionDeadlineMs: options.interactionDeadlineMs ?? 3000,
      interactionTokenTtlMs: options.interactionTokenTtlMs ?? 15 * 60_000,
      gatewayUrl,
      faults: this.faults,
      shardCount: this.gateway.shardCount,
      sessionStartLimit: () => this.gateway.sessionStartLimit(),
      enforceGlobalLimit: options.enforceGlobalLimit ?? false,
    });
    this.state.onRoleCreate = (guild, role) => this.gateway.broadcast(guild.id, GatewayDispatchEvents.GuildRoleCreate, { guild_id: guild.id, role: this.state.apiRole(role) });
    this.state.onGuildCreate = (guild) => this.gateway.broadcast(guild.id, GatewayDispatchEvents.GuildCreate, guild.gatewayGuild());
    this.state.onMessageChange = (change, message) => this.publish(change, message);
    this.state.onViolation = (text, spec) => {
      options.onViolation?.(text, spec);
      for (const stream of this.eventStreams) writeEvent(stream.res, 'violation', { text, spec });
    };
  }

  get port(): number {
    return this.listeningPort;
  }
  get url(): string {
    return `http://127.0.0.1:${this.listeningPort}`;
  }
  get restApi(): string {
    return `${this.url}/api`;
  }
  /** The default guild, "Sandbox Server", where requests without `guild` act. */
  get guildId(): string {
    return this.state.guildId;
  }
  /** The default guild's channel, #table. */
  get channelId(): string {
    return this.state.channelId;
  }
  /** How many shards the fake runs (FakeDiscordOptions.shards). */
  get shardCount(): number {
    return this.gateway.shardCount;
  }
  /** The shard a guild (a name or id; created on first use) belongs to: `(guild_id >> 22) % shardCount`. */
  shardOf(guild?: string): number {
    return this.gateway.shardOf(this.state.guild(guild).id);
  }
  /** The shards a client is connected to now, ascending. */
  liveShards(): number[] {
    return this.gateway.liveShards();
  }
  /** Answers from a shard an interaction was not sent to, and answers whose caller did not name its shards. */
  get shardCounts(): ShardCounts {
    return { ...this.rest.shardCounts };
  }
  /** Which shard an interaction was sent to, and the shards of those who answered it. */
  interactionShard(interactionId: string): FakeInteractionShard | undefined {
    const record = this.tracker.get(interactionId);
    if (record?.shard === undefined || record.sessionId === undefined) return undefined;
    return { shard: record.shard, sessionId: record.sessionId, answeredBy: (record.answeredBy ?? []).map((s) => (s ? [...s] : null)) };
  }
  /** Every rule the bot broke and every request the fake does not implement (the live list). */
  /** The REST requests the bot made, as Discord's global rate limit counts them (fake-traffic.ts). */
  get traffic(): FakeTraffic {
    return this.rest.traffic;
  }

  /** The requests the fake answered with a global 429 of its own (FakeDiscordOptions.enforceGlobalLimit), oldest first. */
  get globalLimitHits(): readonly GlobalLimitHit[] {
    return this.rest.globalLimit?.hits ?? [];
  }

  get violations(): string[] {
    return this.state.violations;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = http.createServer((req, res) => void this.onRequest(req, res));
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      if (refuseForeignUpgrade(req, socket, this.listeningPort)) return;
      if (!this.gateway.handleUpgrade(req, socket, head)) socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.requestedPort, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.listeningPort = (server.address() as AddressInfo).port;
    this.state.baseUrl = this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.gateway.close();
    for (const stream of this.eventStreams) stream.res.end();
    this.eventStreams.clear();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  user(nameOrId: string): FakeUser {
    return { ...this.state.user(nameOrId) };
  }

  /**
   * A guild by name (case-insensitive; created on first use, and announced to the bot as Discord announces a
   * server the bot joins) or by a known id; the default guild without a name. Its `channelId` is where the bot's
   * messages there go: `fake.messages(fake.guild('Other').channelId)`.
   */
  guild(nameOrId?: string): FakeGuildInfo {
    const guild = this.state.guild(nameOrId);
    return { id: guild.id, name: guild.name, channelId: guild.channelId, channelName: guild.channelName };
  }

  /** Every guild, the default one first. */
  guilds(): FakeGuildInfo[] {
    return [...this.state.guilds.values()].map((g) => ({ id: g.id, name: g.name, channelId: g.channelId, channelName: g.channelName }));
  }

  /** A role of the default guild, or of `guild` (a name or id, created on first use like the role). */
  role(name: string, guild?: string): FakeRole {
    const role = this.state.guild(guild).role(name);
    return { id: role.id, name: role.name };
  }

  /** Injects INTERACTION_CREATE for the request and resolves with the bot's responses once it is done. */
  async interact(request: SandboxInteractionRequest): Promise<SandboxInteractionResult> {
    if (!this.server) throw new SandboxRequestError('the fake Discord is not started');
    // While the bot's connection is down but its session can resume, the interaction waits in the session and is
    // replayed on RESUME, as Discord does; its 3 s still count from now.
    if (!this.gateway.canDeliverAny) {
      throw new SandboxRequestError('the bot is not connected to the fake gateway (no client has logged in)');
    }
    const built = buildInteraction(this.state, request, (customId) => this.tracker.findModal(customId));
    const s = this.state;
    const guild = built.guild;
    if (!this.gateway.canDeliver(guild.id)) {
      throw new SandboxRequestError(`the bot is not connected to the fake gateway as shard ${this.gateway.shardOf(guild.id)} of ${this.gateway.shardCount}, the shard of "${guild.name}"`);
    }
    const id = s.ids.next();
    const token = InteractionTracker.newToken();
    const permissions = guild.permissionsOf(built.userId);
    // Discord sends the member's permissions in the channel too; discord-api-types does not list them there.
    const where = guild.threads.has(built.channelId) ? guild.apiThread(built.channelId) : guild.apiChannel();
    const channel: InteractionCommon['channel'] & { permissions: string } = { ...where, permissions };
    const payload = interactionPayload(
      built,
      {
        id,
        application_id: s.applicationId,
        guild_id: guild.id,
        guild: { id: guild.id, locale: Locale.EnglishUS, features: [] },
        channel,
        channel_id: built.channelId,
        member: { ...guild.apiMember(built.userId), permissions },
        token,
        version: 1,
        app_permissions: guild.permissionsOf(s.botUser.id),
        locale: Locale.EnglishUS,
        guild_locale: Locale.EnglishUS,
        entitlements: [],
        authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: guild.id },
        context: InteractionContextType.Guild,
        attachment_size_limit: 10 * 1024 * 1024,
      },
      built.sourceMessage ? s.apiMessage(built.sourceMessage) : undefined,
    );
    const record: InteractionRecord = {
      id,
      token,
      type: built.type,
      createdAt: Date.now(),
      userId: built.userId,
      guildId: guild.id,
      channelId: built.channelId,
      ...(built.sourceMessage ? { sourceMessageId: built.sourceMessage.id } : {}),
      ...(built.commandName ? { commandName: built.commandName } : {}),
      payload: payload as unknown as Json,
      responses: [],
      errors: [],
      lastActivity: Date.now(),
      inflight: 0,
      ...(this.botSaysWhenDone ? { awaitsHandled: true } : {}),
    };
    this.tracker.register(record);
    record.dispatchedAt = performance.now();
    const sent = this.gateway.dispatchToGuild(guild.id, GatewayDispatchEvents.InteractionCreate, payload);
    if (!sent) throw new SandboxRequestError('the bot is not connected to the fake gateway (no client has logged in)');
    record.shard = sent.shard;
    record.sessionId = sent.sessionId;
    return this.tracker.collect(record, { responseTimeoutMs: this.responseTimeoutMs, settleMs: this.settleMs, handledTimeoutMs: this.handledTimeoutMs });
  }

  /**
   * The bot is done with an interaction: its handler returned, so every request it awaited has been answered. With
   * `botSaysWhenDone` interact() resolves on this (see interaction-tracker.ts); the sandbox's bot calls it in this
   * process, and a test of a bot in another process forwards its router's "interaction handled" log line.
   */
  interactionHandled(interactionId: string): void {
    this.tracker.handled(interactionId);
  }

  /**
   * The channel's messages as they are now (after edits), oldest first; by default the default guild's channel
   * (another guild's: `fake.guild(name).channelId`). Ephemeral ones are left out, unless `includeEphemeral` (all of
   * them) or `forUser` (a user name or id: the ephemeral ones sent to that user).
   */
  messages(channelId: string = this.state.channelId, options: { includeEphemeral?: boolean; forUser?: string } = {}): FakeMessage[] {
    const userId = options.forUser !== undefined ? this.state.userIdOf(options.forUser) : undefined;
    return [...this.state.messages.values()]
      .filter((m) => m.channelId === channelId && (options.includeEphemeral || this.state.visibleTo(m, userId)))
      .map((m) => this.state.fakeMessage(m));
  }

  /**
   * Everything the bot answered to an interaction so far, and the rules it broke (interact() gives the same once the
   * bot is done; without `botSaysWhenDone` it only guesses that from a quiet period, and an answer may come after).
   */
  answersTo(interactionId: string): Pick<SandboxInteractionResult, 'responses' | 'errors'> | undefined {
    const record = this.tracker.get(interactionId);
    return record ? { responses: [...record.responses], errors: [...record.errors] } : undefined;
  }

  /** Any message by id, ephemeral ones included. */
  message(id: string): FakeMessage | undefined {
    const message = this.state.messages.get(id);
    return message ? this.state.fakeMessage(message) : undefined;
  }

  /**
   * The slash commands a guild offers (a name or id; default the default guild), exactly as the bot registered them:
   * the global ones, then the guild's own (FakeState.offeredCommands).
   */
  /**
   * The context-menu commands a guild offers under Apps, exactly as the bot registered them: a message's (right-click
   * a message) then a member's (right-click a member).
   */
  contextMenus(guild?: string): unknown[] {
    const found = this.state.guild(guild);
    return ([ApplicationCommandType.Message, ApplicationCommandType.User] as const).flatMap((type) => this.state.offeredMenus(found, type).map((c) => structuredClone(c.definition)));
  }

  /** A member's own message in a guild's channel (what they typed there), for the bot's message context menus to act on. */
  say(user: string, content: string, guild?: string): FakeMessage {
    const found = this.state.guild(guild);
    return this.state.fakeMessage(this.state.memberMessage(this.state.user(user).id, found.channelId, content));
  }

  commands(guild?: string): unknown[] {
    return this.state.offeredCommands(this.state.guild(guild)).map((c) => structuredClone(c.definition));
  }

  /** How many times the bot wrote a guild's commands (PUT, POST, PATCH, DELETE); `'global'` for the global ones. */
  commandWrites(guild?: string): number {
    return this.state.commandWrites.get(guild === 'global' ? 'global' : this.state.guild(guild).id) ?? 0;
  }

  /** The channel webhooks that exist now (a channel's, or every one), with their tokens: a test deletes or looks for them. */
  webhooks(channelId?: string): Array<{ id: string; token: string; channelId: string; name: string; applicationId: string }> {
    return [...this.state.webhooks.values()].filter((webhook) => channelId === undefined || webhook.channelId === channelId).map((webhook) => ({ ...webhook }));
  }

  /** A public thread of a guild's #table by name (made on first use, as a request's `thread` does): its id and parent. */
  thread(name: string, guild?: string): { id: string; name: string; parentId: string } {
    const where = this.state.guild(guild);
    const thread = where.thread(name);
    return { id: thread.id, name: thread.name, parentId: where.channelId };
  }

  /** How many webhooks the bot created in all: one per channel, however often its NPCs speak. */
  get webhooksCreated(): number {
    return this.state.webhooksCreated;
  }

  /** Deletes a webhook as a server's admin would (Server Settings → Integrations): its next execute answers 404. */
  deleteWebhook(id: string): void {
    if (!this.state.webhooks.delete(id)) throw new SandboxRequestError(`there is no webhook ${id}`);
  }

  /**
   * Grants or takes a permission from the bot's own role in a guild (default the default guild), as an admin editing
   * it would: later interactions carry the new app_permissions, and REST checks read it.
   */
  setBotPermission(name: string, granted: boolean, guild?: string): void {
    const bits = permissionBits([name]);
    if (bits === undefined) throw new SandboxRequestError(`unknown permission "${name}"`);
    const role = this.state.guild(guild).role(this.state.botUser.username);
    const now = BigInt(role.permissions);
    role.permissions = (granted ? now | BigInt(bits) : now & ~BigInt(bits)).toString();
  }

  knownUsers(): FakeUser[] {
    return [...this.state.users.values()].map((u) => ({ ...u }));
  }

  /** Forgets the violations so far (a test that provoked some on purpose, after checking them). */
  clearViolations(): void {
    this.state.clearViolations();
  }

  /**
   * Cuts the bot's gateway connection(s) abruptly, as a network failure does: the socket is destroyed without a
   * close frame (the client sees 1006), or closed with `code` (after 4000, Discord's "unknown error", a client
   * resumes; 1000 ends the session, so the client identifies anew). The session stays resumable unless
   * `invalidateSession`; dispatches made while the bot is away (interactions, role creations) are kept and
   * replayed when it resumes. Returns how many connections were cut.
   */
  dropGateway(options: { code?: number; invalidateSession?: boolean } = {}): number {
    return this.gateway.drop(options);
  }

  /** How the bot has used the gateway: identifies, resumes, events replayed on resume, drops, invalid sessions. */
  get gatewayCounts(): GatewayCounts {
    return { ...this.gateway.counts };
  }

  /** Resolves once a client is connected and ready (identified or resumed); at once if one is. */
  waitForGateway(timeoutMs = 10_000): Promise<void> {
    return this.gateway.waitForLive(timeoutMs);
  }

  /** Resolves once a client has identified and been sent READY + GUILD_CREATE (at once if one is connected). */
  waitForReady(timeoutMs = 10_000): Promise<void> {
    return this.gateway.waitForReady(timeoutMs);
  }

  /** Adds a sandbox endpoint (exact path match); see RouteHandler for what it may return. */
  route(method: 'GET' | 'POST', path: string, handler: RouteHandler): void {
    if (!path.startsWith('/')) throw new Error(`route path must start with "/": ${path}`);
    if (RESERVED_PREFIXES.some((prefix) => path.startsWith(prefix))) throw new Error(`route path ${path} is reserved for the fake Discord`);
    this.customRoutes.set(`${method} ${path}`, handler);
  }

  // ---- HTTP ------------------------------------------------------------------------------------------------

  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    // Cross-site pages and DNS rebinding (http-guard.ts): before anything is read or done.
    if (refuseForeignRequest(req, res, this.listeningPort)) return;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    try {
      const body = await readBody(req);
      if (path === '/api/v10' || path.startsWith('/api/v10/')) {
        const result = await this.rest.handle({ method, path: path.slice('/api/v10'.length) || '/', query: url.searchParams, headers: req.headers, body, receivedAt });
        sendJson(res, result.status, result.body, result.headers);
        return;
      }
      if (/^\/api\/v\d+(\/|$)/.test(path)) {
        this.state.recordViolation(`${method} ${path}: not implemented by the fake (only API v10 is)`);
        sendJson(res, 404, { message: '404: Not Found', code: 0 });
        return;
      }
      if (method === 'GET' && path.startsWith('/attachments/')) {
        this.serveAttachment(path, res);
        return;
      }
      const custom = this.customRoutes.get(`${method} ${path}`);
      if (custom) {
        const result = await custom({ query: url.searchParams, body: parseSandboxBody(body) });
        sendRouteResult(res, result);
        return;
      }
      if (method === 'GET' && path === EVENTS_PATH) {
        this.openEventStream(req, res, url.searchParams);
        return;
      }
      const builtIn = await this.sandboxApi(method, path, url.searchParams, body);
      if (builtIn !== undefined) {
        sendJson(res, 200, builtIn);
        return;
      }
      sendJson(res, 404, { error: `no such sandbox endpoint: ${method} ${path}` });
    } catch (error) {
      if (error instanceof SandboxRequestError) sendJson(res, error.status, { error: error.message });
      else sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The built-in sandbox JSON API; undefined when the path is not one of its endpoints. */
  private async sandboxApi(method: string, path: string, query: URLSearchParams, body: Buffer): Promise<unknown> {
    if (method === 'POST' && path === '/api/interactions') {
      return this.interact(parseSandboxBody(body) as SandboxInteractionRequest);
    }
    if (method !== 'GET') return undefined;
    if (path === '/api/messages') {
      const includeEphemeral = query.get('ephemeral') === 'true';
      const forUser = query.get('user') || undefined;
      return { messages: this.messages(this.channelOfQuery(query), { includeEphemeral, ...(forUser ? { forUser } : {}) }) };
    }
    const one = /^\/api\/messages\/(\d+)$/.exec(path);
    if (one) {
      const message = this.message(one[1]!);
      if (!message) throw new SandboxRequestError(`unknown message id "${one[1]}"`, 404);
      return { message };
    }
    if (path === '/api/commands') {
      const name = query.get('guild') || undefined;
      if (name !== undefined && !this.state.findGuild(name)) throw new SandboxRequestError(`unknown guild "${name}"`, 404);
      return { commands: this.commands(name), menus: this.contextMenus(name) };
    }
    if (path === '/api/users') return { users: this.knownUsers() };
    if (path === '/api/server') {
      const s = this.state;
      const name = query.get('guild') || undefined;
      const guild = name === undefined ? s.defaultGuild : s.findGuild(name);
      if (!guild) throw new SandboxRequestError(`unknown guild "${name}" (known: ${[...s.guilds.values()].map((g) => g.name).join(', ')})`, 404);
      return {
        guild: { id: guild.id, name: guild.name },
        channel: { id: guild.channelId, name: guild.channelName },
        bot: { ...s.botUser },
        roles: [...guild.roles.values()].filter((r) => r.id !== guild.id && !r.managed).map((r) => ({ id: r.id, name: r.name })),
        guilds: [...s.guilds.values()].map((g) => ({ id: g.id, name: g.name, channel: { id: g.channelId, name: g.channelName } })),
      };
    }
    if (path === '/api/violations') return { violations: [...this.violations] };
    return undefined;
  }

  /**
   * GET /api/events[?user=NAME]: server-sent events. First `snapshot` ({ messages }: the channel as
   * GET /api/messages?user=NAME shows it), then one `message` event per change: { type: 'create' | 'update',
   * message } or { type: 'delete', id }. Ephemeral messages go only to the stream of the user they were sent to.
   */
  private openEventStream(req: http.IncomingMessage, res: http.ServerResponse, query: URLSearchParams): void {
    const user = query.get('user') || undefined;
    const channelId = this.channelOfQuery(query);
    const stream: EventStream = { res, channelId, ...(user ? { userId: this.state.userIdOf(user) } : {}) };
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    writeEvent(res, 'snapshot', { messages: this.messages(channelId, user ? { forUser: user } : {}) });
    this.eventStreams.add(stream);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), EVENTS_HEARTBEAT_MS);
    heartbeat.unref();
    const close = (): void => {
      clearInterval(heartbeat);
      this.eventStreams.delete(stream);
    };
    req.on('close', close);
    res.on('close', close);
  }

  private publish(change: MessageChange, message: MessageRecord): void {
    if (this.eventStreams.size === 0) return;
    const data = change === 'delete' ? { type: change, id: message.id } : { type: change, message: this.state.fakeMessage(message) };
    for (const stream of this.eventStreams) {
      if (stream.channelId === message.channelId && this.state.visibleTo(message, stream.userId)) writeEvent(stream.res, 'message', data);
    }
  }

  /**
   * The channel a `?guild=` names: the default guild's without one. Looking does not create the guild: a name not
   * used yet gives the id its channel will have, which holds no messages so far.
   */
  private channelOfQuery(query: URLSearchParams): string {
    const name = query.get('guild') || undefined;
    if (name === undefined) return this.state.channelId;
    const channelId = this.state.channelIdOf(name);
    if (!channelId) throw new SandboxRequestError(`unknown guild id "${name}"`, 404);
    return channelId;
  }

  private serveAttachment(path: string, res: http.ServerResponse): void {
    const id = path.split('/')[2] ?? '';
    const file = this.state.files.get(id);
    if (!file) {
      sendJson(res, 404, { message: 'Not Found', code: 0 });
      return;
    }
    res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
    res.end(file.data);
  }
}

function writeEvent(res: http.ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new SandboxRequestError(`request body larger than ${MAX_BODY_BYTES} bytes`, 413));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseSandboxBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new SandboxRequestError('the request body is not valid JSON');
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status === 200 ? 204 : status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendRouteResult(res: http.ServerResponse, result: unknown): void {
  if (typeof result === 'object' && result !== null) {
    const raw = result as { __html?: unknown; __body?: unknown; __contentType?: unknown; __status?: unknown };
    if (typeof raw.__html === 'string') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(raw.__html) });
      res.end(raw.__html);
      return;
    }
    if ((typeof raw.__body === 'string' || Buffer.isBuffer(raw.__body)) && typeof raw.__contentType === 'string') {
      const data = typeof raw.__body === 'string' ? Buffer.from(raw.__body) : raw.__body;
      res.writeHead(typeof raw.__status === 'number' ? raw.__status : 200, { 'content-type': raw.__contentType, 'content-length': data.length });
      res.end(data);
      return;
    }
  }
  sendJson(res, 200, result);
}
