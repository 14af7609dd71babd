// The public shapes of the fake Discord (re-exported by fake-discord.ts, which is the module to import).

export interface FakeDiscordOptions {
  /** 0 (default) = a free port. */
  port?: number;
  /** The bot token the fake accepts (default 'sandbox-token'). */
  token?: string;
  applicationId?: string;
  /** Default 'Tac Talk Bot'. */
  botUsername?: string;
  /**
   * The bot says when it is done with each interaction (FakeDiscord.interactionHandled): interact() resolves then,
   * with nothing of the interaction in flight, instead of after a quiet period (default false: a bot that says
   * nothing, e.g. in processes of its own). The sandbox's bot in this process always says.
   */
  botSaysWhenDone?: boolean;
  /** Without `botSaysWhenDone`: the quiet period after the last request for an interaction before interact() resolves; default 40 ms. */
  settleMs?: number;
  /** How long interact() waits for the first response (and without `botSaysWhenDone`, after a deferral, for the real one); default 5000 ms. */
  responseTimeoutMs?: number;
  /** With `botSaysWhenDone`: how long interact() waits, after the first answer, for the bot to say it is done before failing; default 60 s (a hang guard). */
  handledTimeoutMs?: number;
  /** Discord's deadline for the first callback; default 3000 ms. Lower it to test late answers quickly. */
  interactionDeadlineMs?: number;
  /** How long an interaction token stays valid for follow-ups and edits; default 15 minutes as on Discord. */
  interactionTokenTtlMs?: number;
  /** Seeds the generator behind fault rules with a `probability` (also `faults.seed()`); a fixed default. */
  faultSeed?: string;
  /**
   * How many shards the fake runs (default 1): GET /gateway/bot answers it, IDENTIFY must name `shard: [id, shards]`,
   * and each guild's events go only to shard `(guild_id >> 22) % shards`.
   */
  shards?: number;
  /** GET /gateway/bot's `session_start_limit.max_concurrency` (default 1, as for most bots on Discord). */
  maxConcurrency?: number;
  /**
   * Session starts allowed in 24 hours (default 1000, Discord's for most bots): GET /gateway/bot's
   * session_start_limit counts them down, and an IDENTIFY past them is refused (Invalid Session) and is a violation.
   */
  sessionStartsPerDay?: number;
  /**
   * Refuse an IDENTIFY less than 5 s after the previous one of its bucket (shard_id % maxConcurrency), as Discord
   * does, and count it a violation. Default: on when the fake runs more than one shard (a deployment: a shard manager
   * and its restarts, whose pacing is the thing under test), off with one. Unsharded, tests restart one bot after
   * another on purpose, and a real bot restarted that fast would only be told to wait; nothing of the bot's would be
   * tested by it.
   */
  paceIdentifies?: boolean;
  /**
   * Enforce Discord's global rate limit (default false): a request past 50 in the last second (interaction endpoints
   * aside) is answered with Discord's global 429, and so is every such request while a global 429 runs (an injected
   * one too); they are listed in `globalLimitHits`, and one sent after a global 429 was given, while it ran, is a
   * violation.
   */
  enforceGlobalLimit?: boolean;
  /**
   * Called with each violation as the fake logs it; `spec` when the rule broken is Discord's API spec (a request
   * body it rejects). The sandbox logs them; every violation also goes to the page's live feed (`violation` events).
   */
  onViolation?: (text: string, spec: boolean) => void;
}

/** Where an interaction went and who answered it (FakeDiscord.interactionShard). */
export interface FakeInteractionShard {
  /** The shard whose session was sent INTERACTION_CREATE, and that session's id. */
  shard: number;
  sessionId: string;
  /** For each callback or webhook call: the shards its caller named in its User-Agent (`shards/<ids>`), null if none. */
  answeredBy: (number[] | null)[];
}

export interface SandboxAttachment {
  filename: string;
  /** UTF-8 text of the file. */
  content?: string;
  base64?: string;
  contentType?: string;
  /** Filled in by the fake for stored files: where it serves them. */
  id?: string;
  url?: string;
  size?: number;
}

export interface SandboxInteractionRequest {
  /** A sandbox user's name (created on first use) or id. */
  user: string;
  /** Role names the member has for this interaction, e.g. ['dispatcher'] (case-insensitive; created on first use). */
  roles?: string[];
  /**
   * Permissions the member has for this interaction on top of @everyone's and their roles', by Discord's
   * PermissionFlagsBits names, e.g. ['ManageGuild'] or ['Administrator']; none if absent (so no Manage Server).
   */
  permissions?: string[];
  /** 'roll challenge' = command 'roll', subcommand 'challenge'; 'sheet skill set' = group 'skill', subcommand 'set'. */
  command?: string;
  /** Option name → value; user options take a user name or id, role options a role name, attachments a SandboxAttachment. */
  options?: Record<string, unknown>;
  /**
   * A context-menu command by its name ("Replay this roll"), run on `message` (a message id) or on `target` (a
   * user's name or id), as right-clicking it → Apps does.
   */
  menu?: string;
  /** With `menu`: the member it is run on. */
  target?: string;
  /** With command: send an AUTOCOMPLETE interaction with this option focused. */
  focused?: string;
  /** A button press: custom_id + the message id it sits on. */
  button?: string;
  message?: string;
  /** A select menu: custom_id + chosen values (message required too). */
  select?: string;
  values?: string[];
  /** A modal submit: custom_id + text input custom_id → value. */
  modal?: string;
  fields?: Record<string, string>;
  /**
   * Sends a button or select press whose custom_id its message does not carry, as a forged client can (Discord
   * sends the message as it is with it); without it such a press is refused as a mistake. A modal submit needs no
   * flag: any custom_id can be submitted, with `message` or without.
   */
  forged?: boolean;
  /** Channel name or id, within the interaction's guild; default its one text channel, #table. */
  channel?: string;
  /** Act in a public thread of #table, by name (made on first use, with a stable id), instead of #table itself. */
  thread?: string;
  /**
   * The guild (server) the user acts in, by name (case-insensitive, created on first use with a stable id) or
   * by a known guild's id; default the sandbox's own "Sandbox Server". A button, a select, or a modal given
   * `message`, acts where that message is; a modal without both, where the bot opened it. Users are the same in
   * every guild; `roles` and `permissions` apply in this one only.
   */
  guild?: string;
}

export interface SandboxResponse {
  kind: 'reply' | 'update' | 'followup' | 'autocomplete' | 'modal' | 'deferred' | 'edit' | 'delete';
  ephemeral: boolean;
  /**
   * For 'reply' and 'followup' the content/embeds/components as sent; for 'update' and 'edit' the message as it
   * stands after the change (fields the request left out keep their earlier value).
   */
  content?: string;
  embeds: unknown[];
  components: unknown[];
  /** Exactly as sent (allowed_mentions), undefined if absent. */
  allowedMentions?: unknown;
  messageId?: string;
  attachments?: SandboxAttachment[];
  choices?: unknown[];
  modal?: unknown;
}

export interface SandboxInteractionResult {
  id: string;
  responses: SandboxResponse[];
  /** Rule violations caused by this interaction's requests. */
  errors: string[];
  /**
   * Faults the fake injected into this interaction's requests (FakeDiscord.faults), one line each; absent when
   * none. They are not violations: the bot did nothing wrong, Discord did.
   */
  faults?: string[];
  /**
   * Milliseconds (performance.now(), fractional) from dispatching INTERACTION_CREATE to the fake receiving the
   * bot's first accepted callback; absent when no callback was accepted.
   */
  firstResponseMs?: number;
}

export interface FakeMessage {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
  embeds: unknown[];
  components: unknown[];
  allowedMentions?: unknown;
  flags: number;
  ephemeral: boolean;
  interactionId?: string;
  /**
   * Who caused the message, for messages the bot sent in answer to an interaction: the interaction's type
   * (2 a slash command, 3 a component, 5 a modal), its user, and for a slash command its name ("roll challenge").
   */
  interaction?: { type: number; userId: string; username: string; command?: string; /** A context menu's (no slash before its name). */ contextMenu?: true };
  /** A message a channel webhook posted (an NPC's line or roll): the webhook and the name and picture it posted under. */
  webhook?: { id: string; username: string; avatarUrl?: string };
  attachments: SandboxAttachment[];
  editedAt?: string;
  createdAt: string;
}

/** A guild of the fake Discord, for tests that act in more than one (`fake.guild('Other')`). */
export interface FakeGuildInfo {
  id: string;
  name: string;
  /** Its one text channel, #table. */
  channelId: string;
  channelName: string;
}

export interface FakeUser {
  id: string;
  username: string;
  bot: boolean;
}

export interface FakeRole {
  id: string;
  name: string;
}

/** A bad sandbox request (unknown command, missing field, the bot did not answer …): HTTP 400 in the JSON API. */
export class SandboxRequestError extends Error {
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.name = 'SandboxRequestError';
    this.status = status;
  }
}
