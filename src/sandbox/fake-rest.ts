// The fake Discord REST API (`/api/v10/...`): the routes an unmodified discord.js 14 bot uses, with Discord's
// rules enforced (bot token, interaction deadlines and single acknowledgement, message and command limits).
// Every breach answers like Discord would (status + JSON error code) AND is logged in state.violations, and,
// when it belongs to an interaction, in that interaction's errors. A route the fake does not know answers
// 404 and is logged as 'METHOD PATH: not implemented by the fake', so a test notices an unexpected call.
// A request a fault rule picks (fake-faults.ts) is answered 5xx or 429 instead, and not carried out.
import type { IncomingHttpHeaders } from 'node:http';
import { ApplicationCommandType, ApplicationIntegrationType, InteractionResponseType, InteractionType, MessageFlags, MessageType, RESTJSONErrorCodes } from 'discord-api-types/v10';
import { randomBytes } from 'node:crypto';
import type { FakeGuild, FakeState, Json, MessageRecord, StoredFile, WebhookRecord } from './fake-state.js';
import { guessContentType, isEphemeral, P } from './fake-state.js';
import type { InteractionRecord, InteractionTracker } from './interaction-tracker.js';
import type { SandboxResponse } from './types.js';
import type { LimitIssue } from './discord-limits.js';
import {
  checkAutocompleteChoices,
  checkCommand,
  checkCommandSet,
  checkMessage,
  checkModal,
  describeIssues,
  invalidFormBody,
  isEmptyMessage,
} from './discord-limits.js';
import { stableSnowflake } from './snowflake.js';
import { checkBodyAgainstSpec, routeProblem, specOperationOf, SPEC_VERSION } from './discord-spec.js';
import { globalRateLimitAnswer, type FakeFaults } from './fake-faults.js';
import { FakeTraffic, GlobalRateLimit } from './fake-traffic.js';

export interface RestRequest {
  method: string;
  /** The path after `/api/v10`, e.g. `/users/@me`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the HTTP request arrived (before its body was read). */
  receivedAt?: number;
}

export interface RestResult {
  status: number;
  body?: unknown;
  /** Extra response headers (a 429's rate limit headers). */
  headers?: Record<string, string>;
}

export interface RestOptions {
  interactionDeadlineMs: number;
  interactionTokenTtlMs: number;
  gatewayUrl: () => string;
  /** Injected outages and rate limits; none when absent. */
  faults?: FakeFaults;
  /** GET /gateway/bot's `shards` (default 1) and `session_start_limit` (FakeGateway.sessionStartLimit). */
  shardCount?: number;
  sessionStartLimit?: () => Json;
  /** Answer past Discord's global limit with its global 429 (GlobalRateLimit); off when absent. */
  enforceGlobalLimit?: boolean;
}

/** How the bot's processes answered interactions under sharding (FakeDiscord.shardCounts). */
export interface ShardCounts {
  /** Answers (callbacks, follow-ups, edits) to an interaction from a caller naming shards that do not include the one it was sent to. */
  wrongShard: number;
  /** Answers whose caller did not name its shards (no `shards/<ids>` in its User-Agent), while the fake runs more than one shard. */
  unattributed: number;
}

/**
 * The shards a REST caller says it runs: `shards/0,1` (or `shard/0`) in its User-Agent, as discord.js sends with
 * `rest: { userAgentAppendix: 'shards/0,1' }`. Undefined when it says nothing.
 */
export function callerShards(userAgent: string | undefined): number[] | undefined {
  const match = /(?:^|[\s(;])shards?\/(\d+(?:,\d+)*)(?=$|[\s);])/i.exec(userAgent ?? '');
  return match ? match[1]!.split(',').map(Number) : undefined;
}

interface UploadedFile {
  field: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

interface Context {
  request: RestRequest;
  params: Record<string, string>;
  /** `METHOD /api/v10/path` with interaction tokens masked, for violation messages. */
  label: string;
  /** The interaction this request belongs to, if any (its errors get this request's violations). */
  interaction?: InteractionRecord;
  json?: Json | unknown[];
  files: UploadedFile[];
}

type Handler = (ctx: Context) => RestResult | Promise<RestResult>;

interface Route {
  method: string;
  segments: string[];
  /** 'bot': needs `Authorization: Bot <token>`; 'none': interaction callbacks and webhooks. */
  auth: 'bot' | 'none';
  handler: Handler;
}

/** Thrown inside handlers to answer with a Discord error. */
class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

/** Discord's daily limit of application command creates, per server and globally. */
const DAILY_COMMAND_CREATES = 200;
const MAX_FILE_BYTES = 10 * 1024 * 1024; // the upload limit of a server without boosts
/** The names Discord's documentation gives them, for the fake's error messages. */
const CALLBACK_NAMES: Record<number, string> = {
  [InteractionResponseType.Pong]: 'PONG',
  [InteractionResponseType.ChannelMessageWithSource]: 'CHANNEL_MESSAGE_WITH_SOURCE',
  [InteractionResponseType.DeferredChannelMessageWithSource]: 'DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE',
  [InteractionResponseType.DeferredMessageUpdate]: 'DEFERRED_UPDATE_MESSAGE',
  [InteractionResponseType.UpdateMessage]: 'UPDATE_MESSAGE',
  [InteractionResponseType.ApplicationCommandAutocompleteResult]: 'APPLICATION_COMMAND_AUTOCOMPLETE_RESULT',
  [InteractionResponseType.Modal]: 'MODAL',
};
const INTERACTION_NAMES: Record<number, string> = {
  [InteractionType.ApplicationCommand]: 'APPLICATION_COMMAND',
  [InteractionType.MessageComponent]: 'MESSAGE_COMPONENT',
  [InteractionType.ApplicationCommandAutocomplete]: 'APPLICATION_COMMAND_AUTOCOMPLETE',
  [InteractionType.ModalSubmit]: 'MODAL_SUBMIT',
};
const Callback = InteractionResponseType;
/** Which callback types Discord accepts for which interaction type. */
const ALLOWED_CALLBACKS: Record<number, InteractionResponseType[]> = {
  [InteractionType.ApplicationCommand]: [Callback.ChannelMessageWithSource, Callback.DeferredChannelMessageWithSource, Callback.Modal],
  [InteractionType.MessageComponent]: [Callback.ChannelMessageWithSource, Callback.DeferredChannelMessageWithSource, Callback.DeferredMessageUpdate, Callback.UpdateMessage, Callback.Modal],
  [InteractionType.ApplicationCommandAutocomplete]: [Callback.ApplicationCommandAutocompleteResult],
  [InteractionType.ModalSubmit]: [Callback.ChannelMessageWithSource, Callback.DeferredChannelMessageWithSource, Callback.DeferredMessageUpdate, Callback.UpdateMessage],
};
/** Discord's limit of webhooks in one channel. */
const MAX_WEBHOOKS_PER_CHANNEL = 15;
/** Flags a bot may set on a new message; others are Discord's to set. */
const SETTABLE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications | MessageFlags.IsComponentsV2;

/** A slash command's answers are "chat input command" messages, a context menu's "context menu command" ones, every other one a default message. */
const messageTypeOf = (interaction: InteractionRecord): MessageType => {
  if (interaction.type !== InteractionType.ApplicationCommand) return MessageType.Default;
  const data = interaction.payload.data as { type?: number } | undefined;
  return data?.type === ApplicationCommandType.User || data?.type === ApplicationCommandType.Message ? MessageType.ContextMenuCommand : MessageType.ChatInputCommand;
};

/** A context menu's answer names what it was run on, as Discord's interaction metadata does (a member, or a message). */
function menuTarget(interaction: InteractionRecord): Json {
  const data = interaction.payload.data as { type?: number; target_id?: string; resolved?: { users?: Record<string, unknown> } } | undefined;
  if (interaction.type !== InteractionType.ApplicationCommand || !data?.target_id) return {};
  if (data.type === ApplicationCommandType.User) return { target_user: data.resolved?.users?.[data.target_id] ?? { id: data.target_id } };
  return data.type === ApplicationCommandType.Message ? { target_message_id: data.target_id } : {};
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export class FakeRest {
  private readonly routes: Route[] = [];
  readonly shardCounts: ShardCounts = { wrongShard: 0, unattributed: 0 };
  /** Every request, for the rate Discord would count (fake-traffic.ts). */
  readonly traffic = new FakeTraffic();
  /** Discord's global limit, when the fake enforces it (RestOptions.enforceGlobalLimit). */
  readonly globalLimit: GlobalRateLimit | undefined;

  constructor(
    private readonly state: FakeState,
    private readonly tracker: InteractionTracker,
    private readonly options: RestOptions,
  ) {
    this.globalLimit = options.enforceGlobalLimit ? new GlobalRateLimit(this.traffic) : undefined;
    this.defineRoutes();
  }

  async handle(request: RestRequest): Promise<RestResult> {
    // When it arrived, not when its body was read: Discord's limit counts requests as they come.
    const arrivedAt = request.receivedAt === undefined ? Date.now() : Date.now() - Math.max(0, Math.round(performance.now() - request.receivedAt));
    const counted = this.traffic.record(request.method, request.path, callerShards(request.headers['user-agent']), arrivedAt);
    const label = `${request.method} /api/v10${this.mask(request.path)}`;
    const match = this.match(request.method, request.path);
    if (!match) {
      this.state.recordViolation(`${label}: not implemented by the fake`);
      return { status: 404, body: { message: '404: Not Found', code: 0 } };
    }
    const { route, params } = match;
    if (route.auth === 'bot' && !this.authorized(request.headers.authorization)) {
      this.state.recordViolation(`${label}: 401 Unauthorized (missing or wrong bot token)`);
      return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    }
    const ctx: Context = { request, params, label, files: [] };
    ctx.interaction = this.interactionFor(route, params);
    if (ctx.interaction && (params.interaction !== undefined || params.token !== undefined)) this.checkShard(ctx, ctx.interaction);
    // The unmasked path: two interactions' @original edits are different requests, and a retry repeats its own.
    const requestKey = `${request.method} ${request.path}`;
    if (ctx.interaction) this.tracker.begin(ctx.interaction, requestKey);
    try {
      const limited = this.globalLimit?.check(counted);
      if (limited?.limited) {
        const { hit } = limited;
        if (hit.ignoredA429) this.violate(ctx, `sent while a global 429 was running (${hit.retryAfterMs} ms of it left): every process of the bot must wait out a global rate limit`);
        const answer = globalRateLimitAnswer(hit.retryAfterMs);
        return { status: answer.status, body: answer.body, headers: answer.headers };
      }
      // Before the body is even read: a faulted request changes nothing, as on Discord.
      const faulted = this.options.faults?.decide({ method: request.method, path: this.mask(request.path), key: requestKey, interactionId: ctx.interaction?.id });
      if (faulted?.fault.global) this.globalLimit?.given(faulted.fault.at, faulted.fault.retryAfterMs ?? 0);
      if (faulted) {
        if (ctx.interaction) this.tracker.addFault(ctx.interaction, faulted.fault, requestKey);
        return { status: faulted.answer.status, body: faulted.answer.body, headers: faulted.answer.headers };
      }
      await this.parseBody(ctx);
      this.checkSpec(ctx);
      return await route.handler(ctx);
    } catch (error) {
      if (error instanceof RestError) return { status: error.status, body: error.body };
      throw error;
    } finally {
      if (ctx.interaction) this.tracker.end(ctx.interaction);
    }
  }

  // ---- plumbing -------------------------------------------------------------------------------------------

  private route(method: string, pattern: string, auth: Route['auth'], handler: Handler): void {
    // A route Discord's spec does not have, or one taking a body the spec check cannot read, is the fake's own mistake.
    const problem = routeProblem(method, pattern);
    if (problem) throw new Error(`fake Discord: ${problem}`);
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), auth, handler });
  }

  private match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    const parts = path.split('/').filter(Boolean).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p; // a malformed escape: match it as written
      }
    });
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = route.segments.every((segment, i) => {
        if (segment.startsWith(':')) {
          params[segment.slice(1)] = parts[i]!;
          return true;
        }
        return segment === parts[i];
      });
      if (ok) return { route, params };
    }
    return undefined;
  }

  /**
   * An answer to an interaction (its callback, or a webhook call with its token) must come from the shard it was
   * sent to: only that shard's session was given its id and token. Interaction calls carry no bot token, so the
   * caller is known by the shards its User-Agent names (callerShards); each caller is kept on the record, and one
   * naming other shards is a violation (Discord would accept the call: this is the bot's own bookkeeping gone wrong,
   * e.g. a token handed between processes or a shard answering from shared state).
   */
  private checkShard(ctx: Context, record: InteractionRecord): void {
    if (record.shard === undefined) return;
    const shards = callerShards(ctx.request.headers['user-agent']);
    (record.answeredBy ??= []).push(shards ?? null);
    if (!shards) {
      if ((this.options.shardCount ?? 1) > 1) this.shardCounts.unattributed++;
      return;
    }
    if (shards.includes(record.shard)) return;
    this.shardCounts.wrongShard++;
    this.violate(ctx, `answered by shard ${shards.join(',')}, but the interaction was sent to shard ${record.shard} (only that shard's session was given it)`);
  }

  private authorized(header: string | undefined): boolean {
    return header === `Bot ${this.state.token}`;
  }

  /** Hides interaction tokens in logged paths: they are long and secret-looking. */
  private mask(path: string): string {
    return path
      .replace(/^(\/interactions\/[^/]+\/)[^/]+/, '$1<token>')
      .replace(/^(\/webhooks\/[^/]+\/)[^/]+/, '$1<token>');
  }

  /** Callbacks and webhooks belong to their interaction; other writes to the one interact() is collecting. */
  private interactionFor(route: Route, params: Record<string, string>): InteractionRecord | undefined {
    if (params.interaction !== undefined) {
      const record = this.tracker.get(params.interaction);
      return record?.token === params.token ? record : undefined;
    }
    if (params.token !== undefined) return this.tracker.withToken(params.token);
    if (route.method !== 'GET') return this.tracker.current();
    return undefined;
  }

  /**
   * A JSON body, or (a message with attachments) a multipart one: a `payload_json` part and one part per file
   * (`files[0]`, …), read by Node's own FormData parser, the counterpart of the one discord.js writes them with.
   */
  private async parseBody(ctx: Context): Promise<void> {
    const { body, headers } = ctx.request;
    if (body.length === 0) return;
    const contentType = headers['content-type'];
    if (contentType && /^multipart\/form-data/i.test(contentType)) {
      let form: FormData;
      try {
        form = await new Request('http://fake-discord.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
      } catch (error) {
        throw this.fail(ctx, 400, RESTJSONErrorCodes.InvalidFormBodyOrContentType, `Invalid multipart body: ${(error as Error).message}`);
      }
      for (const [name, value] of form) {
        const data = typeof value === 'string' ? Buffer.from(value) : Buffer.from(await value.arrayBuffer());
        if (name === 'payload_json') ctx.json = this.parseJson(ctx, data);
        else if (typeof value !== 'string' || /^files\[\d+\]$/.test(name)) {
          const filename = typeof value === 'string' ? undefined : value.name;
          if (data.length > MAX_FILE_BYTES) {
            throw this.fail(ctx, 413, RESTJSONErrorCodes.RequestEntityTooLarge, `Request entity too large: ${filename ?? name} has ${data.length} bytes (limit ${MAX_FILE_BYTES})`);
          }
          ctx.files.push({ field: name, filename, contentType: typeof value === 'string' ? undefined : value.type, data });
        }
      }
      return;
    }
    ctx.json = this.parseJson(ctx, body);
  }

  private parseJson(ctx: Context, data: Buffer): Json | unknown[] {
    try {
      const value = JSON.parse(data.toString('utf8')) as unknown;
      if (isObject(value) || Array.isArray(value)) return value;
    } catch {
      // fall through
    }
    throw this.fail(ctx, 400, RESTJSONErrorCodes.RequestBodyContainsInvalidJSON, 'The request body contains invalid JSON.');
  }

  private object(ctx: Context): Json {
    return isObject(ctx.json) ? ctx.json : {};
  }

  /** Records a violation (globally and on the request's interaction). */
  private violate(ctx: Context, text: string): void {
    const line = `${ctx.label}: ${text}`;
    this.state.recordViolation(line);
    if (ctx.interaction) this.tracker.addError(ctx.interaction, line);
  }

  /** A Discord error answer; `violation` false for answers that are not the bot's fault (a fetch of a gone message). */
  private fail(ctx: Context, status: number, code: number, message: string, violation = true, extra: Json = {}): RestError {
    if (violation) this.violate(ctx, `${message} (HTTP ${status}, code ${code})`);
    return new RestError(status, { message, code, ...extra });
  }

  /**
   * The body against Discord's own API spec (discord-spec.ts): a mismatch is a violation answered as Discord answers
   * an invalid body, 400 with code 50035 and the issues by path, before the route does anything.
   */
  private checkSpec(ctx: Context): void {
    const operation = specOperationOf(ctx.request.method, ctx.request.path);
    if (!operation) return;
    const { schema, issues } = checkBodyAgainstSpec(operation, ctx.json);
    if (issues.length === 0) return;
    const line = `${ctx.label}: the body does not match Discord's API spec (${SPEC_VERSION}, ${schema}): ${describeIssues(issues)}`;
    this.state.recordViolation(line, { spec: true });
    if (ctx.interaction) this.tracker.addError(ctx.interaction, line);
    throw new RestError(400, invalidFormBody(issues));
  }

  private invalid(ctx: Context, issues: LimitIssue[]): RestError {
    this.violate(ctx, `Invalid Form Body (HTTP 400, code 50035): ${describeIssues(issues)}`);
    return new RestError(400, invalidFormBody(issues));
  }

  // ---- messages -------------------------------------------------------------------------------------------

  private storeFiles(ctx: Context, body: Json): StoredFile[] {
    const meta = Array.isArray(body.attachments) ? body.attachments.filter(isObject) : [];
    return ctx.files.map((file, index) => {
      const n = /^files\[(\d+)\]$/.exec(file.field)?.[1] ?? String(index);
      const info = meta.find((a) => String(a.id) === n);
      const filename = (typeof info?.filename === 'string' && info.filename) || file.filename || `file${n}`;
      const stored: StoredFile = {
        id: this.state.ids.next(),
        filename,
        contentType: file.contentType && file.contentType !== 'application/octet-stream' ? file.contentType : guessContentType(filename),
        data: file.data,
        ...(typeof info?.description === 'string' ? { description: info.description } : {}),
      };
      this.state.files.set(stored.id, stored);
      return stored;
    });
  }

  private checkNewMessage(ctx: Context, body: Json, prefix: string[] = []): void {
    const issues = checkMessage(body, { prefix, fileCount: ctx.files.length });
    if (issues.length) throw this.invalid(ctx, issues);
    if (isEmptyMessage(body, ctx.files.length)) throw this.fail(ctx, 400, RESTJSONErrorCodes.CannotSendAnEmptyMessage, 'Cannot send an empty message');
  }

  private checkEdit(ctx: Context, body: Json, prefix: string[] = []): void {
    const issues = checkMessage(body, { prefix, edit: true, fileCount: ctx.files.length });
    if (issues.length) throw this.invalid(ctx, issues);
  }

  private createMessage(
    ctx: Context,
    body: Json,
    init: { channelId: string; type: number; flags: number; interaction?: InteractionRecord; originalId?: string; webhook?: { id: string; author: NonNullable<MessageRecord['webhookAuthor']> } },
  ): MessageRecord {
    const message: MessageRecord = {
      id: this.state.ids.next(),
      channelId: init.channelId,
      authorId: init.webhook?.id ?? this.state.botUser.id,
      ...(init.webhook ? { webhookId: init.webhook.id, webhookAuthor: init.webhook.author } : {}),
      content: typeof body.content === 'string' ? body.content : '',
      embeds: Array.isArray(body.embeds) ? structuredClone(body.embeds) : [],
      components: Array.isArray(body.components) ? structuredClone(body.components) : [],
      ...(body.allowed_mentions !== undefined ? { allowedMentions: structuredClone(body.allowed_mentions) } : {}),
      flags: init.flags,
      type: init.type,
      tts: body.tts === true,
      attachments: this.storeFiles(ctx, body),
      createdAt: new Date().toISOString(),
    };
    const interaction = init.interaction;
    if (interaction) {
      message.interactionId = interaction.id;
      message.webhookId = this.state.applicationId;
      message.interactionMetadata = {
        id: interaction.id,
        type: interaction.type,
        user: this.state.apiUser(this.state.user(interaction.userId)),
        authorizing_integration_owners: { '0': interaction.guildId },
        ...(init.originalId ? { original_response_message_id: init.originalId } : {}),
        ...(interaction.sourceMessageId && interaction.type === InteractionType.MessageComponent ? { interacted_message_id: interaction.sourceMessageId } : {}),
        ...(interaction.commandName && interaction.type === InteractionType.ApplicationCommand ? { name: interaction.commandName } : {}),
        ...menuTarget(interaction),
      };
    }
    this.state.messages.set(message.id, message);
    this.state.messageChanged('create', message);
    return message;
  }

  private editMessage(ctx: Context, message: MessageRecord, body: Json): void {
    if ('content' in body) message.content = typeof body.content === 'string' ? body.content : '';
    if ('embeds' in body) message.embeds = Array.isArray(body.embeds) ? structuredClone(body.embeds) : [];
    if ('components' in body) message.components = Array.isArray(body.components) ? structuredClone(body.components) : [];
    if ('allowed_mentions' in body) message.allowedMentions = structuredClone(body.allowed_mentions);
    if (typeof body.flags === 'number') {
      message.flags = (message.flags & ~MessageFlags.SuppressEmbeds) | (body.flags & MessageFlags.SuppressEmbeds);
    }
    // `attachments` lists the files to keep (by id) plus the new ones; without it the old files stay.
    const keep = Array.isArray(body.attachments)
      ? new Set(body.attachments.filter(isObject).map((a) => String(a.id)))
      : undefined;
    const kept = keep ? message.attachments.filter((file) => keep.has(file.id)) : message.attachments;
    message.attachments = [...kept, ...this.storeFiles(ctx, body)];
    const wasLoading = (message.flags & MessageFlags.Loading) !== 0;
    message.flags &= ~MessageFlags.Loading;
    if (!wasLoading) message.editedAt = new Date().toISOString();
    this.state.messageChanged('update', message);
  }

  /** The sandbox's view of a response that created or changed a message. */
  private messageResponse(kind: SandboxResponse['kind'], message: MessageRecord, body: Json): SandboxResponse {
    return {
      kind,
      ephemeral: isEphemeral(message),
      content: message.content,
      embeds: structuredClone(message.embeds),
      components: structuredClone(message.components),
      ...(body.allowed_mentions !== undefined ? { allowedMentions: structuredClone(body.allowed_mentions) } : {}),
      messageId: message.id,
      attachments: message.attachments.map((file) => this.state.sandboxAttachment(file)),
    };
  }

  /** Credits a response to the request's interaction, if it has one. */
  private respond(ctx: Context, response: SandboxResponse): void {
    if (ctx.interaction) this.tracker.addResponse(ctx.interaction, response);
  }

  // ---- routes ---------------------------------------------------------------------------------------------

  private defineRoutes(): void {
    const s = this.state;

    this.route('GET', '/gateway', 'none', () => ({ status: 200, body: { url: this.options.gatewayUrl() } }));
    this.route('GET', '/gateway/bot', 'bot', () => ({
      status: 200,
      body: {
        url: this.options.gatewayUrl(),
        shards: this.options.shardCount ?? 1,
        session_start_limit: this.options.sessionStartLimit?.() ?? { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
      },
    }));

    this.route('GET', '/users/@me', 'bot', () => ({
      status: 200,
      body: { ...s.apiUser(s.botUser), verified: true, mfa_enabled: false, locale: 'en-US', email: null },
    }));
    this.route('GET', '/users/@me/guilds', 'bot', (ctx) => {
      const after = ctx.request.query.get('after');
      const limit = Math.min(Math.max(Number(ctx.request.query.get('limit') ?? 200) || 200, 1), 200);
      const guilds = [...s.guilds.values()].filter((guild) => !after || BigInt(guild.id) > BigInt(after)).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      return { status: 200, body: guilds.slice(0, limit).map((guild) => ({ id: guild.id, name: guild.name, icon: null, owner: false, permissions: guild.permissionsOf(s.botUser.id), features: [] })) };
    });
    this.route('GET', '/users/:user', 'bot', (ctx) => {
      const user = s.users.get(ctx.params.user!);
      if (!user) throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownUser, 'Unknown User', false);
      return { status: 200, body: s.apiUser(user) };
    });
    this.route('GET', '/applications/@me', 'bot', () => ({ status: 200, body: this.application() }));
    this.route('GET', '/oauth2/applications/@me', 'bot', () => ({ status: 200, body: this.application() }));

    this.defineCommandRoutes('/applications/:app/commands', false);
    this.defineCommandRoutes('/applications/:app/guilds/:guild/commands', true);

    this.route('POST', '/interactions/:interaction/:token/callback', 'none', (ctx) => this.callback(ctx));

    // One route for both: an interaction's follow-up names the application, a channel webhook's execute names the webhook.
    this.route('POST', '/webhooks/:app/:token', 'none', (ctx) => (ctx.params.app === this.state.applicationId ? this.followUp(ctx) : this.executeWebhook(ctx)));
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      this.route(method, '/webhooks/:app/:token/messages/:message', 'none', (ctx) => this.webhookMessage(ctx));
    }

    this.route('GET', '/channels/:channel', 'bot', (ctx) => {
      const guild = this.channel(ctx);
      return { status: 200, body: guild.threads.has(ctx.params.channel!) ? guild.apiThread(ctx.params.channel!) : guild.apiChannel() };
    });
    this.route('POST', '/channels/:channel/typing', 'bot', (ctx) => {
      this.channel(ctx);
      return { status: 204 };
    });
    this.route('GET', '/channels/:channel/webhooks', 'bot', (ctx) => this.listWebhooks(ctx));
    this.route('POST', '/channels/:channel/webhooks', 'bot', (ctx) => this.createWebhook(ctx));
    this.route('GET', '/channels/:channel/messages', 'bot', (ctx) => this.listMessages(ctx));
    this.route('POST', '/channels/:channel/messages', 'bot', (ctx) => this.postChannelMessage(ctx));
    this.route('GET', '/channels/:channel/messages/:message', 'bot', (ctx) => ({
      status: 200,
      body: s.apiMessage(this.channelMessage(ctx, false)),
    }));
    this.route('PATCH', '/channels/:channel/messages/:message', 'bot', (ctx) => this.patchChannelMessage(ctx));
    this.route('DELETE', '/channels/:channel/messages/:message', 'bot', (ctx) => {
      const message = this.channelMessage(ctx, true);
      s.messages.delete(message.id);
      s.messageChanged('delete', message);
      this.respond(ctx, { kind: 'delete', ephemeral: false, embeds: [], components: [], messageId: message.id });
      return { status: 204 };
    });

    this.route('GET', '/guilds/:guild', 'bot', (ctx) => {
      const guild = this.guild(ctx);
      const counts = ctx.request.query.get('with_counts') === 'true'
        ? { approximate_member_count: guild.members.size, approximate_presence_count: 0 }
        : {};
      return { status: 200, body: { ...guild.apiGuild(), ...counts } };
    });
    this.route('GET', '/guilds/:guild/channels', 'bot', (ctx) => ({ status: 200, body: [this.guild(ctx).apiChannel()] }));
    this.route('GET', '/guilds/:guild/roles', 'bot', (ctx) => ({
      status: 200,
      body: [...this.guild(ctx).roles.values()].map((role) => s.apiRole(role)),
    }));
    this.route('GET', '/guilds/:guild/members', 'bot', (ctx) => {
      const guild = this.guild(ctx);
      const limit = Math.min(1000, Math.max(1, Number(ctx.request.query.get('limit') ?? 1)));
      const after = ctx.request.query.get('after') ?? '0';
      const ids = [...guild.members.keys()].filter((id) => BigInt(id) > BigInt(after)).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
      return { status: 200, body: ids.slice(0, limit).map((id) => guild.apiMember(id)) };
    });
    this.route('GET', '/guilds/:guild/members/:user', 'bot', (ctx) => {
      const guild = this.guild(ctx);
      if (!guild.members.has(ctx.params.user!)) throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownMember, 'Unknown Member', false);
      return { status: 200, body: guild.apiMember(ctx.params.user!) };
    });
  }

  private application(): Json {
    const s = this.state;
    return {
      id: s.applicationId,
      name: s.botUser.username,
      icon: null,
      description: '',
      summary: '',
      type: null,
      bot_public: true,
      bot_require_code_grant: false,
      verify_key: '0'.repeat(64),
      flags: 0,
      hook: true,
      is_monetized: false,
      redirect_uris: [],
      interactions_endpoint_url: null,
      role_connections_verification_url: null,
      tags: [],
      team: null,
      owner: s.apiUser(s.user('sandbox-owner')),
      bot: s.apiUser(s.botUser),
      approximate_guild_count: s.guilds.size,
      integration_types_config: { '0': {} },
    };
  }

  /** The guild whose channel the path names; 404 Unknown Channel for a channel no guild has. */
  private channel(ctx: Context): FakeGuild {
    const guild = this.state.guildOfChannel(ctx.params.channel!);
    if (!guild) throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownChannel, 'Unknown Channel');
    return guild;
  }

  private guild(ctx: Context): FakeGuild {
    const guild = this.state.guilds.get(ctx.params.guild!);
    if (!guild) throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownGuild, 'Unknown Guild');
    return guild;
  }

  // ---- application commands -----------------------------------------------------------------------------

  private defineCommandRoutes(base: string, guild: boolean): void {
    const scopeOf = (ctx: Context): string | undefined => {
      if (ctx.params.app !== this.state.applicationId) throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownApplication, `Unknown Application (${ctx.params.app} is not this bot's application id ${this.state.applicationId})`);
      if (!guild) return undefined;
      if (!this.state.guilds.has(ctx.params.guild!)) throw this.fail(ctx, 403, RESTJSONErrorCodes.MissingAccess, `Missing Access (the bot is not in guild ${ctx.params.guild})`);
      return ctx.params.guild;
    };
    const list = (guildId: string | undefined): Json[] =>
      [...this.state.commands.values()].filter((c) => c.guildId === guildId).map((c) => this.apiCommand(c.definition, guildId));
    const find = (ctx: Context, guildId: string | undefined): string => {
      const key = [...this.state.commands.entries()].find(([, c]) => c.guildId === guildId && c.id === ctx.params.command)?.[0];
      if (!key) throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownApplicationCommand, 'Unknown application command');
      return key;
    };

    this.route('GET', base, 'bot', (ctx) => ({ status: 200, body: list(scopeOf(ctx)) }));
    this.route('PUT', base, 'bot', (ctx) => {
      const guildId = scopeOf(ctx);
      const issues = checkCommandSet(ctx.json);
      if (issues.length) throw this.invalid(ctx, issues);
      const definitions = ctx.json as Json[];
      // A bulk overwrite creates only the names not registered yet; each counts against the day's 200.
      this.countCreates(ctx, guildId, definitions.filter((definition) => !this.state.commands.has(this.commandKey(definition, guildId))).length);
      const previous = [...this.state.commands].filter(([, command]) => command.guildId === guildId);
      for (const [key] of previous) this.state.commands.delete(key);
      for (const definition of definitions) this.storeCommand(definition, guildId);
      // What a server's list had before stays sendable by clients that have not refreshed it (FakeState.commandFor).
      for (const [key, command] of previous) {
        const now = this.state.commands.get(key);
        if (guildId && (!now || JSON.stringify(now.definition) !== JSON.stringify(command.definition))) this.state.retiredCommands.set(key, command);
      }
      this.countWrite(guildId);
      return { status: 200, body: list(guildId) };
    });
    this.route('POST', base, 'bot', (ctx) => {
      const guildId = scopeOf(ctx);
      const definition = this.object(ctx);
      const issues = checkCommand(definition);
      if (issues.length) throw this.invalid(ctx, issues);
      const existed = this.state.commands.has(this.commandKey(definition, guildId));
      if (!existed) this.countCreates(ctx, guildId, 1);
      this.storeCommand(definition, guildId);
      this.countWrite(guildId);
      return { status: existed ? 200 : 201, body: this.apiCommand(definition, guildId) };
    });
    this.route('GET', `${base}/:command`, 'bot', (ctx) => {
      const guildId = scopeOf(ctx);
      return { status: 200, body: this.apiCommand(this.state.commands.get(find(ctx, guildId))!.definition, guildId) };
    });
    this.route('PATCH', `${base}/:command`, 'bot', (ctx) => {
      const guildId = scopeOf(ctx);
      const key = find(ctx, guildId);
      const definition = { ...this.state.commands.get(key)!.definition, ...this.object(ctx) };
      const issues = checkCommand(definition);
      if (issues.length) throw this.invalid(ctx, issues);
      this.state.commands.delete(key);
      this.storeCommand(definition, guildId);
      this.countWrite(guildId);
      return { status: 200, body: this.apiCommand(definition, guildId) };
    });
    this.route('DELETE', `${base}/:command`, 'bot', (ctx) => {
      const guildId = scopeOf(ctx);
      const key = find(ctx, guildId);
      const record = this.state.commands.get(key)!;
      this.state.commands.delete(key);
      if (guildId) this.state.retiredCommands.set(key, record);
      this.countWrite(guildId);
      return { status: 204 };
    });
  }

  private countWrite(guildId: string | undefined): void {
    const scope = guildId ?? 'global';
    this.state.commandWrites.set(scope, (this.state.commandWrites.get(scope) ?? 0) + 1);
  }

  /**
   * Discord allows 200 command creates a day per server (and globally): past them it answers 400, code 30034. A bot
   * that gets there registers in a loop, which is a fault worth a violation.
   */
  private countCreates(ctx: Context, guildId: string | undefined, creates: number): void {
    const scope = guildId ?? 'global';
    const day = new Date().toISOString().slice(0, 10);
    const today = this.state.commandCreates.get(scope);
    const count = (today?.day === day ? today.count : 0) + creates;
    if (count > DAILY_COMMAND_CREATES) {
      throw this.fail(ctx, 400, RESTJSONErrorCodes.MaximumDailyApplicationCommandCreatesReached, `Max number of daily application command creates has been reached (${DAILY_COMMAND_CREATES})`);
    }
    this.state.commandCreates.set(scope, { day, count });
  }

  private commandKey(definition: Json, guildId: string | undefined): string {
    return `${guildId ?? 'global'}:${String(definition.type ?? ApplicationCommandType.ChatInput)}:${String(definition.name)}`;
  }

  private storeCommand(definition: Json, guildId: string | undefined): void {
    const key = this.commandKey(definition, guildId);
    this.state.retiredCommands.delete(key);
    // Discord keeps a command's id when a bulk overwrite re-sends the same name; a stable id does the same here.
    this.state.commands.set(key, {
      id: stableSnowflake(`command:${this.state.applicationId}:${key}`),
      ...(guildId ? { guildId } : {}),
      version: this.state.ids.next(),
      definition: structuredClone(definition),
    });
  }

  private apiCommand(definition: Json, guildId: string | undefined): Json {
    const record = this.state.commands.get(this.commandKey(definition, guildId))!;
    return {
      type: ApplicationCommandType.ChatInput,
      name_localizations: null,
      description_localizations: null,
      default_member_permissions: null,
      dm_permission: true,
      nsfw: false,
      integration_types: [ApplicationIntegrationType.GuildInstall],
      contexts: null,
      ...definition,
      id: record.id,
      application_id: this.state.applicationId,
      version: record.version,
      ...(guildId ? { guild_id: guildId } : {}),
    };
  }

  // ---- interaction callbacks ------------------------------------------------------------------------------

  private callback(ctx: Context): RestResult {
    const record = ctx.interaction;
    if (!record) {
      throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownInteraction, 'Unknown interaction', true);
    }
    const body = this.object(ctx);
    const type = typeof body.type === 'number' ? body.type : -1;
    const typeName = CALLBACK_NAMES[type] ?? `type ${type}`;
    // PONG only answers Discord's PING in HTTP-interactions mode; over the gateway it means nothing: ignore it.
    if (type === Callback.Pong) return { status: 204 };
    if (record.ack !== undefined) {
      throw this.fail(ctx, 400, RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged, `Interaction has already been acknowledged. (second callback ${typeName} after ${CALLBACK_NAMES[record.ack]})`, true);
    }
    const elapsed = Date.now() - record.createdAt;
    if (elapsed > this.options.interactionDeadlineMs) {
      throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownInteraction, `Unknown interaction (the callback came ${elapsed} ms after the interaction; Discord allows ${this.options.interactionDeadlineMs} ms)`, true);
    }
    if (!(ALLOWED_CALLBACKS[record.type] ?? []).includes(type) || ((type === Callback.DeferredMessageUpdate || type === Callback.UpdateMessage) && !record.sourceMessageId)) {
      throw this.invalid(ctx, [{ path: ['type'], code: 'INTERACTION_CALLBACK_TYPE_INVALID', message: `Callback ${typeName} is not valid for a ${INTERACTION_NAMES[record.type] ?? record.type} interaction${record.sourceMessageId ? '' : ' without a message'}.` }]);
    }
    const data = isObject(body.data) ? body.data : {};
    switch (type) {
      case Callback.ChannelMessageWithSource:
        this.checkNewMessage(ctx, data, ['data']);
        break;
      case Callback.UpdateMessage:
        this.checkEdit(ctx, data, ['data']);
        break;
      case Callback.ApplicationCommandAutocompleteResult: {
        const issues = checkAutocompleteChoices(data);
        if (issues.length) throw this.invalid(ctx, issues);
        break;
      }
      case Callback.Modal: {
        const issues = checkModal(data);
        if (issues.length) throw this.invalid(ctx, issues);
        break;
      }
    }
    record.ack = type;
    record.firstResponseAt = ctx.request.receivedAt ?? performance.now();
    const s = this.state;
    const messageType = messageTypeOf(record);
    const ephemeralFlag = typeof data.flags === 'number' ? data.flags & MessageFlags.Ephemeral : 0;
    let message: MessageRecord | undefined;
    switch (type) {
      case Callback.ChannelMessageWithSource: {
        const flags = ((data.flags as number | undefined) ?? 0) & (SETTABLE_FLAGS | MessageFlags.Ephemeral);
        message = this.createMessage(ctx, data, { channelId: record.channelId, type: messageType, flags, interaction: record });
        record.originalMessageId = message.id;
        this.respond(ctx, this.messageResponse('reply', message, data));
        break;
      }
      case Callback.DeferredChannelMessageWithSource: {
        message = this.createMessage(ctx, {}, { channelId: record.channelId, type: messageType, flags: ephemeralFlag | MessageFlags.Loading, interaction: record });
        record.originalMessageId = message.id;
        this.respond(ctx, { kind: 'deferred', ephemeral: ephemeralFlag !== 0, embeds: [], components: [], messageId: message.id });
        break;
      }
      case Callback.DeferredMessageUpdate: {
        const source = s.messages.get(record.sourceMessageId!);
        record.originalMessageId = record.sourceMessageId;
        this.respond(ctx, { kind: 'deferred', ephemeral: source ? isEphemeral(source) : false, embeds: [], components: [], messageId: record.sourceMessageId });
        break;
      }
      case Callback.UpdateMessage: {
        message = s.messages.get(record.sourceMessageId!);
        if (!message) throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownMessage, 'Unknown Message (the message this component sat on was deleted)');
        this.editMessage(ctx, message, data);
        record.originalMessageId = message.id;
        this.respond(ctx, this.messageResponse('update', message, data));
        break;
      }
      case Callback.ApplicationCommandAutocompleteResult:
        this.respond(ctx, { kind: 'autocomplete', ephemeral: false, embeds: [], components: [], choices: structuredClone(data.choices as unknown[]) });
        break;
      case Callback.Modal:
        record.modal = structuredClone(data);
        this.respond(ctx, { kind: 'modal', ephemeral: false, embeds: [], components: [], modal: structuredClone(data) });
        break;
    }
    if (ctx.request.query.get('with_response') !== 'true') return { status: 204 };
    return {
      status: 200,
      body: {
        interaction: {
          id: record.id,
          type: record.type,
          ...(message ? { response_message_id: message.id, response_message_loading: type === Callback.DeferredChannelMessageWithSource, response_message_ephemeral: isEphemeral(message) } : {}),
        },
        resource: { type, ...(message && (type === Callback.ChannelMessageWithSource || type === Callback.UpdateMessage) ? { message: s.apiMessage(message) } : {}) },
      },
    };
  }

  // ---- interaction webhooks (follow-ups, @original) -------------------------------------------------------

  /** The interaction behind a webhook call, after Discord's checks. */
  private webhookInteraction(ctx: Context): InteractionRecord {
    const record = ctx.interaction;
    if (ctx.params.app !== this.state.applicationId || !record) {
      throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownWebhook, 'Unknown Webhook (not an interaction token the fake issued)');
    }
    if (Date.now() - record.createdAt > this.options.interactionTokenTtlMs) {
      throw this.fail(ctx, 401, RESTJSONErrorCodes.InvalidWebhookToken, 'Invalid Webhook Token (the interaction token expired)');
    }
    if (record.ack === undefined || record.ack === Callback.ApplicationCommandAutocompleteResult) {
      throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownWebhook, `Unknown Webhook (the interaction was ${record.ack === Callback.ApplicationCommandAutocompleteResult ? 'answered with autocomplete choices, which allow no messages' : 'not acknowledged yet: reply or defer first'})`);
    }
    return record;
  }

  private followUp(ctx: Context): RestResult {
    const record = this.webhookInteraction(ctx);
    const body = this.object(ctx);
    this.checkNewMessage(ctx, body);
    const flags = ((body.flags as number | undefined) ?? 0) & (SETTABLE_FLAGS | MessageFlags.Ephemeral);
    const message = this.createMessage(ctx, body, {
      channelId: record.channelId,
      type: messageTypeOf(record),
      flags,
      interaction: record,
      originalId: record.originalMessageId,
    });
    this.respond(ctx, this.messageResponse('followup', message, body));
    return { status: 200, body: this.state.apiMessage(message) };
  }

  private webhookMessage(ctx: Context): RestResult {
    const record = this.webhookInteraction(ctx);
    const id = ctx.params.message === '@original' ? record.originalMessageId : ctx.params.message;
    const message = id ? this.state.messages.get(id) : undefined;
    const belongs = message && (message.id === record.originalMessageId || message.interactionId === record.id);
    const write = ctx.request.method !== 'GET';
    if (!message || !belongs) {
      const why = !id ? 'the interaction has no original response message' : !message ? `message ${id} does not exist` : `message ${id} is not a response to this interaction`;
      throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownMessage, `Unknown Message (${why})`, write);
    }
    if (ctx.request.method === 'GET') return { status: 200, body: this.state.apiMessage(message) };
    if (ctx.request.method === 'DELETE') {
      this.state.messages.delete(message.id);
      this.state.messageChanged('delete', message);
      this.respond(ctx, { kind: 'delete', ephemeral: isEphemeral(message), embeds: [], components: [], messageId: message.id });
      return { status: 204 };
    }
    const body = this.object(ctx);
    this.checkEdit(ctx, body);
    this.editMessage(ctx, message, body);
    this.respond(ctx, this.messageResponse('edit', message, body));
    return { status: 200, body: this.state.apiMessage(message) };
  }

  // ---- channel webhooks (NPCs' voices) --------------------------------------------------------------------

  /** Managing a channel's webhooks needs Manage Webhooks: without it Discord answers 403 Missing Permissions. */
  private requireManageWebhooks(ctx: Context): FakeGuild {
    const guild = this.channel(ctx);
    if ((BigInt(guild.permissionsOf(this.state.botUser.id)) & P.ManageWebhooks) === 0n) {
      throw this.fail(ctx, 403, RESTJSONErrorCodes.MissingPermissions, 'Missing Permissions (Manage Webhooks)', false);
    }
    return guild;
  }

  private apiWebhook(webhook: WebhookRecord): Json {
    return {
      type: 1,
      id: webhook.id,
      name: webhook.name,
      avatar: null,
      channel_id: webhook.channelId,
      guild_id: webhook.guildId,
      application_id: webhook.applicationId,
      user: this.state.apiUser(this.state.user(webhook.creatorId)) as unknown as Json,
      token: webhook.token,
      url: `${this.state.baseUrl}/api/webhooks/${webhook.id}/${webhook.token}`,
    };
  }

  private listWebhooks(ctx: Context): RestResult {
    this.requireManageWebhooks(ctx);
    const list = [...this.state.webhooks.values()].filter((webhook) => webhook.channelId === ctx.params.channel);
    return { status: 200, body: list.map((webhook) => this.apiWebhook(webhook)) };
  }

  private createWebhook(ctx: Context): RestResult {
    const guild = this.requireManageWebhooks(ctx);
    // A thread has no webhooks of its own: its parent's posts in it with thread_id.
    if (guild.threads.has(ctx.params.channel!)) throw this.fail(ctx, 400, RESTJSONErrorCodes.CannotExecuteActionOnThisChannelType, 'Cannot execute action on this channel type (a thread has no webhooks; use its parent channel\'s with thread_id)');
    const body = this.object(ctx);
    const name = String(body.name);
    // Discord refuses these words in a webhook's name.
    if (/clyde|discord/i.test(name)) {
      throw this.invalid(ctx, [{ path: ['name'], code: 'WEBHOOK_NAME_INVALID', message: 'Webhook names cannot contain "clyde" or "discord".' }]);
    }
    const inChannel = [...this.state.webhooks.values()].filter((webhook) => webhook.channelId === ctx.params.channel).length;
    if (inChannel >= MAX_WEBHOOKS_PER_CHANNEL) {
      throw this.fail(ctx, 400, RESTJSONErrorCodes.MaximumNumberOfWebhooksReached, `Maximum number of webhooks reached (${MAX_WEBHOOKS_PER_CHANNEL})`);
    }
    const webhook: WebhookRecord = {
      id: this.state.ids.next(),
      token: randomBytes(51).toString('base64url'),
      channelId: ctx.params.channel!,
      guildId: guild.id,
      name,
      applicationId: this.state.applicationId,
      creatorId: this.state.botUser.id,
    };
    this.state.webhooks.set(webhook.id, webhook);
    this.state.webhooksCreated++;
    return { status: 200, body: this.apiWebhook(webhook) };
  }

  /**
   * A channel webhook's message: posted in its channel (or, with `thread_id`, in a thread of it) under the username and
   * avatar the request gives. A deleted webhook, or a wrong token, answers 404 Unknown Webhook as Discord does.
   */
  private executeWebhook(ctx: Context): RestResult {
    const webhook = this.state.webhooks.get(ctx.params.app!);
    if (!webhook || webhook.token !== ctx.params.token) throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownWebhook, 'Unknown Webhook', false);
    // A webhook belongs to a channel; with thread_id it posts in one of that channel's threads.
    const thread = ctx.request.query.get('thread_id');
    const guild = this.state.guilds.get(webhook.guildId);
    if (thread !== null && !(guild?.threads.has(thread) && guild.channelId === webhook.channelId)) {
      throw this.fail(ctx, 400, RESTJSONErrorCodes.UnknownChannel, `Unknown Channel (thread ${thread} is not a thread of this webhook's channel)`);
    }
    const body = this.object(ctx);
    this.checkNewMessage(ctx, body);
    const username = typeof body.username === 'string' && body.username ? body.username : webhook.name;
    if (/clyde|discord/i.test(username)) {
      throw this.invalid(ctx, [{ path: ['username'], code: 'USERNAME_INVALID', message: 'A webhook message\'s username cannot contain "clyde" or "discord".' }]);
    }
    const flags = ((body.flags as number | undefined) ?? 0) & SETTABLE_FLAGS;
    const author = { username, ...(typeof body.avatar_url === 'string' ? { avatarUrl: body.avatar_url } : {}) };
    const message = this.createMessage(ctx, body, { channelId: thread ?? webhook.channelId, type: 0, flags, webhook: { id: webhook.id, author } });
    if (ctx.request.query.get('wait') !== 'true') return { status: 204 };
    return { status: 200, body: this.state.apiMessage(message) };
  }

  // ---- channel messages (the bot posting outside interactions) --------------------------------------------

  private channelMessage(ctx: Context, write: boolean): MessageRecord {
    this.channel(ctx);
    const message = this.state.messages.get(ctx.params.message!);
    // Ephemeral messages exist only for their user; the channel endpoints cannot see them.
    if (!message || message.channelId !== ctx.params.channel || isEphemeral(message)) {
      throw this.fail(ctx, 404, RESTJSONErrorCodes.UnknownMessage, 'Unknown Message', write);
    }
    if (write && message.authorId !== this.state.botUser.id && ctx.request.method === 'PATCH') {
      throw this.fail(ctx, 403, RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser, 'Cannot edit a message authored by another user');
    }
    return message;
  }

  private listMessages(ctx: Context): RestResult {
    this.channel(ctx);
    const query = ctx.request.query;
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50)));
    let list = [...this.state.messages.values()].filter((m) => m.channelId === ctx.params.channel && !isEphemeral(m));
    const before = query.get('before');
    const after = query.get('after');
    if (before) list = list.filter((m) => BigInt(m.id) < BigInt(before));
    if (after) list = list.filter((m) => BigInt(m.id) > BigInt(after));
    const newestFirst = list.reverse();
    const page = after ? newestFirst.slice(-limit) : newestFirst.slice(0, limit);
    return { status: 200, body: page.map((m) => this.state.apiMessage(m)) };
  }

  private postChannelMessage(ctx: Context): RestResult {
    this.channel(ctx);
    const body = this.object(ctx);
    this.checkNewMessage(ctx, body);
    const flags = ((body.flags as number | undefined) ?? 0) & SETTABLE_FLAGS;
    const message = this.createMessage(ctx, body, {
      channelId: ctx.params.channel!,
      type: isObject(body.message_reference) ? 19 : 0,
      flags,
    });
    this.respond(ctx, this.messageResponse('reply', message, body));
    return { status: 200, body: this.state.apiMessage(message) };
  }

  private patchChannelMessage(ctx: Context): RestResult {
    const message = this.channelMessage(ctx, true);
    const body = this.object(ctx);
    this.checkEdit(ctx, body);
    this.editMessage(ctx, message, body);
    this.respond(ctx, this.messageResponse('edit', message, body));
    return { status: 200, body: this.state.apiMessage(message) };
  }
}
