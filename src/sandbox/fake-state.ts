// The fake Discord's world: guilds (each with one text channel, its roles and its members), users (global, as on
// Discord), messages, uploaded files, registered commands and the violations log, plus the API payloads (users,
// members, guilds, channels, messages) built from it. Payloads are full and realistic on purpose: discord.js silently drops events whose payloads
// miss fields it needs (see /work/shared/FAKE-DISCORD-NOTES.md).
import { ApplicationCommandType, ChannelType, Locale, MessageFlags } from 'discord-api-types/v10';
import type {
  APIAttachment,
  APIEmbed,
  APIGuild,
  APIGuildMember,
  APIInteractionDataResolvedGuildMember,
  APIMessage,
  APIMessageInteractionMetadata,
  APIMessageTopLevelComponent,
  APIRole,
  APITextChannel,
  APIThreadChannel,
  APIUser,
  ChannelFlags,
  GatewayGuildCreateDispatchData,
  GuildMemberFlags,
  GuildSystemChannelFlags,
  RoleFlags,
  UserFlags,
} from 'discord-api-types/v10';
import type { FakeMessage, FakeRole, FakeUser, SandboxAttachment } from './types.js';
import { SnowflakeGenerator, isSnowflake, stableSnowflake } from './snowflake.js';
import { isSubcommandOrGroup } from './discord-limits.js';

export type Json = Record<string, unknown>;

/** Permission bits (Discord's PermissionFlagsBits), spelled out so this module needs no discord.js import. */
export const P = {
  CreateInstantInvite: 1n << 0n,
  KickMembers: 1n << 1n,
  BanMembers: 1n << 2n,
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  AddReactions: 1n << 6n,
  Stream: 1n << 9n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  UseExternalEmojis: 1n << 18n,
  Connect: 1n << 20n,
  Speak: 1n << 21n,
  UseVAD: 1n << 25n,
  ChangeNickname: 1n << 26n,
  ManageNicknames: 1n << 27n,
  ManageRoles: 1n << 28n,
  ManageWebhooks: 1n << 29n,
  UseApplicationCommands: 1n << 31n,
  CreatePublicThreads: 1n << 35n,
  SendMessagesInThreads: 1n << 38n,
  ModerateMembers: 1n << 40n,
};

/** The permission names a sandbox request may grant a member (`"permissions": ["ManageGuild"]`). */
export const PERMISSION_NAMES = Object.keys(P) as Array<keyof typeof P>;

/** The bits of the named permissions; undefined for a name the fake does not know. */
export function permissionBits(names: readonly string[]): string | undefined {
  let bits = 0n;
  for (const name of names) {
    const bit = P[name as keyof typeof P];
    if (bit === undefined) return undefined;
    bits |= bit;
  }
  return bits.toString();
}

/** What a new server grants @everyone (the usual defaults for a text community). */
export const EVERYONE_PERMISSIONS = (
  P.CreateInstantInvite | P.AddReactions | P.Stream | P.ViewChannel | P.SendMessages | P.EmbedLinks | P.AttachFiles |
  P.ReadMessageHistory | P.UseExternalEmojis | P.Connect | P.Speak | P.UseVAD | P.ChangeNickname |
  P.UseApplicationCommands | P.CreatePublicThreads | P.SendMessagesInThreads
).toString();
/** The bot's managed role adds what the README's invite asks for on top: message management, and webhooks for NPCs' voices. */
const BOT_ROLE_PERMISSIONS = (BigInt(EVERYONE_PERMISSIONS) | P.ManageMessages | P.ManageWebhooks).toString();

export interface RoleRecord extends FakeRole {
  permissions: string;
  position: number;
  managed: boolean;
  tags?: Json;
}

export interface MemberRecord {
  roles: string[];
  joinedAt: string;
  /** Permission bits granted on top of @everyone and the roles (the request's `permissions`). */
  permissions: string;
}

export interface StoredFile {
  id: string;
  filename: string;
  contentType: string;
  data: Buffer;
  description?: string;
}

export interface MessageRecord {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
  embeds: unknown[];
  components: unknown[];
  allowedMentions?: unknown;
  flags: number;
  /** 0 DEFAULT, 20 CHAT_INPUT_COMMAND (a reply to a slash command). */
  type: number;
  tts: boolean;
  interactionId?: string;
  /** Discord's interaction_metadata of messages created by interactions. */
  interactionMetadata?: Json;
  webhookId?: string;
  /** A message a channel webhook posted: the name and picture it was posted under (an NPC's), shown as its author. */
  webhookAuthor?: { username: string; avatarUrl?: string };
  attachments: StoredFile[];
  editedAt?: string;
  createdAt: string;
}

export type MessageChange = 'create' | 'update' | 'delete';

/** A public thread of a guild's #table (a request's `thread`). */
export interface ThreadRecord {
  id: string;
  name: string;
  createdAt: string;
}

/** A channel webhook (POST /channels/{id}/webhooks): anyone with its token posts in its channel under any name. */
export interface WebhookRecord {
  id: string;
  token: string;
  channelId: string;
  guildId: string;
  name: string;
  /** The application that made it (the bot's, when the bot made it through its own token). */
  applicationId: string;
  /** The user who made it: the bot's user. */
  creatorId: string;
}

export interface CommandRecord {
  id: string;
  /** undefined = global */
  guildId?: string;
  version: string;
  /** The definition exactly as the bot sent it. */
  definition: Json;
}

export interface StateOptions {
  applicationId: string;
  botUsername: string;
  token: string;
}

export class FakeState {
  readonly ids = new SnowflakeGenerator();
  readonly applicationId: string;
  readonly token: string;
  readonly botUser: FakeUser;
  readonly ownerId = stableSnowflake('user:sandbox-owner');
  readonly createdAt = new Date().toISOString();
  /** Set by the base URL once the server listens; used for attachment urls. */
  baseUrl = 'http://127.0.0.1';

  readonly users = new Map<string, FakeUser>();
  private readonly userIdsByName = new Map<string, string>();
  /** Every guild by id, the default one first (insertion order = creation order). */
  readonly guilds = new Map<string, FakeGuild>();
  private readonly guildIdsByName = new Map<string, string>();
  /** "Sandbox Server": where a request without `guild` acts, with the ids every earlier run stored. */
  readonly defaultGuild: FakeGuild;
  /** Insertion order = creation order (ids increase). */
  readonly messages = new Map<string, MessageRecord>();
  readonly files = new Map<string, StoredFile>();
  /** Channel webhooks by id; a deleted one is gone from here (its next execute answers 404 Unknown Webhook). */
  readonly webhooks = new Map<string, WebhookRecord>();
  /** How many webhooks the bot has created in all (POST /channels/{id}/webhooks that succeeded). */
  webhooksCreated = 0;
  /** key `${guildId ?? 'global'}:${type}:${name}` */
  readonly commands = new Map<string, CommandRecord>();
  /**
   * Commands a server's registration dropped, by the same key: a Discord client that has not refreshed its list
   * still sends them (the bot must refuse them itself); registered again, they leave this map.
   */
  readonly retiredCommands = new Map<string, CommandRecord>();
  /** How often the bot wrote each scope's commands (guild id or 'global'): PUT, POST, PATCH and DELETE. */
  readonly commandWrites = new Map<string, number>();
  /** Commands created per scope today (a new name in a PUT or a POST), against Discord's 200 a day. */
  readonly commandCreates = new Map<string, { day: string; count: number }>();
  readonly violations: string[] = [];
  /** Called when a guild is created after the start (the gateway announces it with GUILD_CREATE, as when a bot is added to a server). */
  onGuildCreate?: (guild: FakeGuild) => void;
  /** Called when a role is created in an announced guild (the gateway announces it with GUILD_ROLE_CREATE). */
  onRoleCreate?: (guild: FakeGuild, role: RoleRecord) => void;
  /** Called after a message is created, edited (or finishes loading) or deleted (the sandbox's live feed). */
  onMessageChange?: (change: MessageChange, message: MessageRecord) => void;
  /** Called with each violation as it is logged (the sandbox logs it and shows it on the page). */
  onViolation?: (text: string, spec: boolean) => void;

  constructor(options: StateOptions) {
    this.applicationId = options.applicationId;
    this.token = options.token;
    this.botUser = { id: options.applicationId, username: options.botUsername, bot: true };
    this.users.set(this.botUser.id, this.botUser);
    this.userIdsByName.set(this.botUser.username.toLowerCase(), this.botUser.id);
    this.defaultGuild = this.addGuild(DEFAULT_GUILD_NAME, this.createdAt);
  }

  /** The default guild's ids and names, as the fake had them when it held one guild. */
  get guildId(): string {
    return this.defaultGuild.id;
  }
  get guildName(): string {
    return this.defaultGuild.name;
  }
  get channelId(): string {
    return this.defaultGuild.channelId;
  }
  get channelName(): string {
    return this.defaultGuild.channelName;
  }

  // ---- guilds ---------------------------------------------------------------------------------------------

  /**
   * A guild by name (case-insensitive, created on first use with a stable id, and announced to the bot) or by the
   * id of a known one; the default guild when `nameOrId` is undefined. Throws for an empty name, a name over 100
   * characters (Discord's limit) or an id no guild has.
   */
  /**
   * The slash commands a server offers: the global ones, then its own registration. Of a bot that registers per
   * server (tests that register in the default server only), a server it has registered nothing in yet borrows the
   * default server's, as if the same list were registered everywhere.
   */
  offeredCommands(guild: FakeGuild): CommandRecord[] {
    return this.offered(guild, [...this.commands.values()].filter((c) => (c.definition.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput));
  }

  /**
   * The global commands, then the guild's own. A bot that registers globally has its commands in every server at
   * once: nothing is borrowed then, so a server shows each command once, as on Discord.
   */
  private offered(guild: FakeGuild, all: CommandRecord[]): CommandRecord[] {
    const global = all.filter((c) => !c.guildId);
    const own = all.filter((c) => c.guildId === guild.id);
    const borrows = own.length === 0 && !this.hasRegistered(guild.id) && !this.hasRegistered('global');
    return [...global, ...(borrows ? all.filter((c) => c.guildId === this.guildId) : own)];
  }

  /** A member's own message (what they typed in the channel): Discord's default message, by that user. */
  memberMessage(userId: string, channelId: string, content: string): MessageRecord {
    const message: MessageRecord = { id: this.ids.next(), channelId, authorId: userId, content, embeds: [], components: [], flags: 0, type: 0, tts: false, attachments: [], createdAt: new Date().toISOString() };
    this.messages.set(message.id, message);
    this.messageChanged('create', message);
    return message;
  }

  /** The context-menu commands of one type (2 a member's, 3 a message's) a server offers, as its slash commands are. */
  offeredMenus(guild: FakeGuild, type: ApplicationCommandType.User | ApplicationCommandType.Message): CommandRecord[] {
    return this.offered(guild, [...this.commands.values()].filter((c) => c.definition.type === type));
  }

  /**
   * The slash command `name` (with the subcommand `path` typed after it) as a member of `guild` can send it: as
   * offered there, or as the guild's list had it before the bot dropped or changed it (a client that has not
   * refreshed its list sends that).
   */
  commandFor(guild: FakeGuild, name: string, path: readonly string[] = []): CommandRecord | undefined {
    const current = this.offeredCommands(guild).find((c) => c.definition.name === name);
    const stale = this.retiredCommands.get(`${guild.id}:1:${name}`);
    if (current && (!stale || hasSubcommandPath(current.definition, path) || !hasSubcommandPath(stale.definition, path))) return current;
    return stale ?? current;
  }

  /** Whether the bot ever wrote this scope's commands (an empty list is a registration too). */
  hasRegistered(scope: string): boolean {
    return (this.commandWrites.get(scope) ?? 0) > 0;
  }

  guild(nameOrId?: string): FakeGuild {
    if (nameOrId === undefined) return this.defaultGuild;
    const found = this.findGuild(nameOrId);
    if (found) return found;
    const name = nameOrId.trim();
    if (!name) throw new Error('a guild needs a name');
    // A snowflake is taken for an id: a guild named with one could never be told from it.
    if (isSnowflake(name)) throw new Error(`unknown guild id ${name}`);
    if ([...name].length > 100) throw new Error('a guild name has at most 100 characters');
    const guild = this.addGuild(name, new Date().toISOString());
    this.onGuildCreate?.(guild);
    return guild;
  }

  /** A known guild by name (case-insensitive) or id, without creating one. */
  findGuild(nameOrId: string): FakeGuild | undefined {
    const key = nameOrId.trim();
    const id = this.guilds.has(key) ? key : this.guildIdsByName.get(key.toLowerCase());
    return id ? this.guilds.get(id) : undefined;
  }

  /**
   * The text channel id of a guild given by name or id, without creating the guild: the id its channel will get
   * for a name not used yet (so its messages can be listed, none, before anyone acts there); undefined for an
   * unknown id.
   */
  channelIdOf(nameOrId: string): string | undefined {
    const known = this.findGuild(nameOrId);
    if (known) return known.channelId;
    const name = nameOrId.trim();
    return name && !isSnowflake(name) ? guildIds(name).channelId : undefined;
  }

  /** The guild whose channel this is; undefined for a channel no guild has. */
  guildOfChannel(channelId: string): FakeGuild | undefined {
    for (const guild of this.guilds.values()) if (guild.channelId === channelId || guild.threads.has(channelId)) return guild;
    return undefined;
  }

  private addGuild(name: string, joinedAt: string): FakeGuild {
    const guild = new FakeGuild(this, name, joinedAt);
    this.guilds.set(guild.id, guild);
    this.guildIdsByName.set(name.toLowerCase(), guild.id);
    return guild;
  }

  // ---- users and roles ------------------------------------------------------------------------------------

  /** A user by name (case-insensitive, created on first use, stable id) or by id. */
  user(nameOrId: string): FakeUser {
    const key = nameOrId.trim();
    if (!key) throw new Error('a user needs a name');
    const byId = this.users.get(key);
    if (byId) return byId;
    const id = this.userIdsByName.get(key.toLowerCase());
    if (id) return this.users.get(id)!;
    // An id this process has not seen (e.g. stored by an earlier run): keep the id, invent a name.
    const user: FakeUser = isSnowflake(key)
      ? { id: key, username: `user-${key.slice(-6)}`, bot: false }
      : { id: stableSnowflake(`user:${key.toLowerCase()}`), username: key, bot: false };
    this.users.set(user.id, user);
    this.userIdsByName.set(user.username.toLowerCase(), user.id);
    return user;
  }

  /** The id a user name (or id) stands for, without creating the user: the id it would get on first use. */
  userIdOf(nameOrId: string): string {
    const key = nameOrId.trim();
    if (this.users.has(key)) return key;
    const id = this.userIdsByName.get(key.toLowerCase());
    if (id) return id;
    return isSnowflake(key) ? key : stableSnowflake(`user:${key.toLowerCase()}`);
  }

  /** Reports a change of a message to onMessageChange (the REST handlers call it after each change). */
  messageChanged(change: MessageChange, message: MessageRecord): void {
    this.onMessageChange?.(change, message);
  }

  /** The user an ephemeral message is for (the user of the interaction that made it), if any. */
  recipientOf(message: MessageRecord): string | undefined {
    const user = message.interactionMetadata?.user as { id?: unknown } | undefined;
    return typeof user?.id === 'string' ? user.id : undefined;
  }

  /** Whether the user (an id) sees the message: everyone sees non-ephemeral ones, only its recipient an ephemeral one. */
  visibleTo(message: MessageRecord, userId: string | undefined): boolean {
    return !isEphemeral(message) || (userId !== undefined && this.recipientOf(message) === userId);
  }

  // ---- payloads -------------------------------------------------------------------------------------------

  // The payloads below are typed by discord-api-types, so tsc proves they have the shape Discord gives each object
  // (the fake sends them in gateway events and REST answers). A field Discord sends that discord-api-types does not
  // list is spread in from a separate object, with a comment; `0 as …Flags` is a bit field with no flag set.

  apiUser(user: FakeUser): APIUser {
    return {
      id: user.id,
      username: user.username,
      discriminator: '0',
      global_name: user.bot ? null : user.username,
      avatar: null,
      bot: user.bot,
      system: false,
      banner: null,
      accent_color: null,
      avatar_decoration_data: null,
      public_flags: 0 as UserFlags,
      flags: 0 as UserFlags,
    };
  }

  apiRole(role: RoleRecord): APIRole {
    return {
      id: role.id,
      name: role.name,
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      icon: null,
      unicode_emoji: null,
      position: role.position,
      permissions: role.permissions,
      managed: role.managed,
      mentionable: false,
      flags: 0 as RoleFlags,
      ...(role.tags ? { tags: role.tags } : {}),
    };
  }

  apiAttachment(file: StoredFile): APIAttachment {
    const url = `${this.baseUrl}/attachments/${file.id}/${encodeURIComponent(file.filename)}`;
    return {
      id: file.id,
      filename: file.filename,
      size: file.data.length,
      url,
      proxy_url: url,
      content_type: file.contentType,
      ...(file.description ? { description: file.description } : {}),
    };
  }

  apiMessage(message: MessageRecord): APIMessage {
    // Not in discord-api-types' APIMessage, but on every message Discord sends of a guild channel.
    const guild = isEphemeral(message) ? {} : { guild_id: (this.guildOfChannel(message.channelId) ?? this.defaultGuild).id };
    return {
      id: message.id,
      channel_id: message.channelId,
      ...guild,
      // A webhook's message is authored by the webhook under the name it was posted with, as Discord shows it.
      author: message.webhookAuthor
        ? { id: message.authorId, username: message.webhookAuthor.username, avatar: null, discriminator: '0000', global_name: null, bot: true }
        : this.apiUser(this.user(message.authorId)),
      content: message.content,
      timestamp: message.createdAt,
      edited_timestamp: message.editedAt ?? null,
      tts: message.tts,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      mention_channels: [],
      attachments: message.attachments.map((file) => this.apiAttachment(file)),
      // As the bot sent them, checked against Discord's API spec on the way in (discord-spec.ts).
      embeds: message.embeds as APIEmbed[],
      components: message.components as APIMessageTopLevelComponent[],
      reactions: [],
      pinned: false,
      type: message.type,
      flags: message.flags,
      ...(message.webhookId ? { webhook_id: message.webhookId, application_id: this.applicationId } : {}),
      ...(message.interactionMetadata ? { interaction_metadata: message.interactionMetadata as unknown as APIMessageInteractionMetadata } : {}),
    };
  }

  fakeMessage(message: MessageRecord): FakeMessage {
    return {
      id: message.id,
      channelId: message.channelId,
      authorId: message.authorId,
      content: message.content,
      embeds: structuredClone(message.embeds),
      components: structuredClone(message.components),
      ...(message.allowedMentions !== undefined ? { allowedMentions: structuredClone(message.allowedMentions) } : {}),
      flags: message.flags,
      ephemeral: isEphemeral(message),
      ...(message.interactionId ? { interactionId: message.interactionId } : {}),
      ...(message.webhookAuthor && message.webhookId ? { webhook: { id: message.webhookId, ...message.webhookAuthor } } : {}),
      ...(message.interactionMetadata ? { interaction: this.interactionSummary(message.interactionMetadata) } : {}),
      attachments: message.attachments.map((file) => this.sandboxAttachment(file)),
      ...(message.editedAt ? { editedAt: message.editedAt } : {}),
      createdAt: message.createdAt,
    };
  }

  private interactionSummary(metadata: Json): NonNullable<FakeMessage['interaction']> {
    const user = (metadata.user ?? {}) as { id?: string; username?: string };
    return {
      type: Number(metadata.type),
      userId: String(user.id),
      username: String(user.username),
      ...(typeof metadata.name === 'string' ? { command: metadata.name } : {}),
      ...(metadata.target_user !== undefined || metadata.target_message_id !== undefined ? { contextMenu: true } : {}),
    };
  }

  sandboxAttachment(file: StoredFile): SandboxAttachment {
    return {
      id: file.id,
      filename: file.filename,
      contentType: file.contentType,
      size: file.data.length,
      url: `${this.baseUrl}/attachments/${file.id}/${encodeURIComponent(file.filename)}`,
      content: file.data.toString('utf8'),
      base64: file.data.toString('base64'),
    };
  }

  /** Stores a file a user attaches (a sandbox attachment option) and returns it. */
  storeUpload(attachment: SandboxAttachment): StoredFile {
    if (!attachment || typeof attachment.filename !== 'string' || !attachment.filename) {
      throw new Error('an attachment needs a filename');
    }
    const data =
      attachment.base64 !== undefined ? Buffer.from(attachment.base64, 'base64') : Buffer.from(attachment.content ?? '', 'utf8');
    const file: StoredFile = {
      id: this.ids.next(),
      filename: attachment.filename,
      contentType: attachment.contentType ?? guessContentType(attachment.filename),
      data,
    };
    this.files.set(file.id, file);
    return file;
  }

  /**
   * Logs a rule the bot broke. `spec`: the rule is Discord's API spec (discord-spec.ts); such a violation also waits in
   * this process's list of spec violations until a test's check takes it (takeSpecViolations), so a test fails on
   * it even where nothing looks at `violations`.
   */
  recordViolation(text: string, options: { spec?: boolean } = {}): string {
    this.violations.push(text);
    if (options.spec) unreportedSpecViolations.push({ state: this, text });
    this.onViolation?.(text, options.spec === true);
    return text;
  }

  /** Forgets the violations logged so far, spec violations waiting for a test's check included. */
  clearViolations(): void {
    this.violations.length = 0;
    for (let i = unreportedSpecViolations.length - 1; i >= 0; i--) {
      if (unreportedSpecViolations[i]!.state === this) unreportedSpecViolations.splice(i, 1);
    }
  }
}

/** Spec violations of every fake in this process that no check has taken yet, oldest first. */
const unreportedSpecViolations: { state: FakeState; text: string }[] = [];

/**
 * Takes (and forgets) the spec violations of every fake Discord in this process since the last call: the test
 * setup file test/helpers/discord-spec-check.ts fails each test that leaves one.
 */
export function takeSpecViolations(): string[] {
  return unreportedSpecViolations.splice(0).map((entry) => entry.text);
}

const DEFAULT_GUILD_NAME = 'Sandbox Server';
const CHANNEL_NAME = 'table';

/**
 * A guild's stable ids, derived from its name (case-insensitive) so a restarted sandbox finds what the bot stored.
 * The default guild's role ids keep the form they had when the fake held one guild; other guilds' role ids carry
 * the guild's name, since on Discord no two guilds share a role.
 */
function guildIds(name: string): { id: string; channelId: string; roleId: (roleName: string) => string } {
  const isDefault = name.toLowerCase() === DEFAULT_GUILD_NAME.toLowerCase();
  return {
    id: stableSnowflake(`guild:${name}`),
    channelId: stableSnowflake(`channel:${name}/${CHANNEL_NAME}`),
    roleId: (roleName) => stableSnowflake(isDefault ? `role:${roleName}` : `role:${name}/${roleName}`),
  };
}

/**
 * One guild: its text channel, its roles (@everyone, whose id is the guild's, the bot's managed role, Dispatcher,
 * and those requests name) and its members. A member's roles and permissions belong to one guild, as on Discord.
 */
export class FakeGuild {
  readonly id: string;
  readonly name: string;
  readonly channelId: string;
  readonly channelName = CHANNEL_NAME;
  /** When the bot joined: every member's joined_at, and GUILD_CREATE's. */
  readonly joinedAt: string;
  readonly roles = new Map<string, RoleRecord>();
  private readonly roleIdsByName = new Map<string, string>();
  private readonly roleId: (roleName: string) => string;
  /**
   * Member state per user id: the roles and the extra permissions (bits, on top of @everyone and the roles) of
   * their latest interaction in this guild.
   */
  readonly members = new Map<string, MemberRecord>();
  /** Public threads of #table by id (`thread(name)`). */
  readonly threads = new Map<string, ThreadRecord>();
  /** False while the constructor seeds the roles: the bot hears of those in GUILD_CREATE, not one by one. */
  private announced = false;

  constructor(
    private readonly state: FakeState,
    name: string,
    joinedAt: string,
  ) {
    const ids = guildIds(name);
    this.id = ids.id;
    this.name = name;
    this.channelId = ids.channelId;
    this.roleId = ids.roleId;
    this.joinedAt = joinedAt;
    this.roles.set(this.id, { id: this.id, name: '@everyone', permissions: EVERYONE_PERMISSIONS, position: 0, managed: false });
    this.roleIdsByName.set('@everyone', this.id);
    const botRole = this.role(state.botUser.username);
    botRole.managed = true;
    botRole.permissions = BOT_ROLE_PERMISSIONS;
    botRole.tags = { bot_id: state.botUser.id };
    this.role('Dispatcher');
    this.members.set(state.botUser.id, { roles: [botRole.id], joinedAt, permissions: '0' });
    this.announced = true;
  }

  /** A role by name (case-insensitive, created on first use, stable id) or by id. */
  role(nameOrId: string): RoleRecord {
    const key = nameOrId.trim();
    if (!key) throw new Error('a role needs a name');
    const found = this.findRole(key);
    if (found) return found;
    const role: RoleRecord = {
      id: this.roleId(key.toLowerCase()),
      name: key,
      permissions: '0',
      position: this.roles.size,
      managed: false,
    };
    this.roles.set(role.id, role);
    this.roleIdsByName.set(key.toLowerCase(), role.id);
    if (this.announced) this.state.onRoleCreate?.(this, role);
    return role;
  }

  /** A known role by name or id, without creating one. */
  findRole(nameOrId: string): RoleRecord | undefined {
    const key = nameOrId.trim();
    const id = this.roles.has(key) ? key : this.roleIdsByName.get(key.toLowerCase());
    return id ? this.roles.get(id) : undefined;
  }

  /** Makes the user a member (if not yet) and sets their roles and extra permissions; returns the member state. */
  member(userId: string, roleIds?: string[], extraPermissions?: string): MemberRecord {
    let member = this.members.get(userId);
    if (!member) {
      member = { roles: [], joinedAt: this.joinedAt, permissions: '0' };
      this.members.set(userId, member);
    }
    if (roleIds) member.roles = roleIds;
    if (extraPermissions !== undefined) member.permissions = extraPermissions;
    return member;
  }

  /** The member's permissions: @everyone, plus their roles, plus what their latest request granted. */
  permissionsOf(userId: string): string {
    const member = this.members.get(userId);
    let bits = BigInt(EVERYONE_PERMISSIONS) | BigInt(member?.permissions ?? '0');
    for (const roleId of member?.roles ?? []) bits |= BigInt(this.roles.get(roleId)?.permissions ?? '0');
    return bits.toString();
  }

  /** A member object, with its user. */
  apiMember(userId: string): APIGuildMember {
    return { ...this.partialMember(userId), deaf: false, mute: false, user: this.state.apiUser(this.state.user(userId)) };
  }

  /** A member in an interaction's data.resolved.members: Discord leaves out the user, `deaf` and `mute`. */
  resolvedMember(userId: string): APIInteractionDataResolvedGuildMember {
    return { ...this.partialMember(userId), permissions: this.permissionsOf(userId) };
  }

  private partialMember(userId: string): Omit<APIInteractionDataResolvedGuildMember, 'permissions'> {
    const member = this.member(userId);
    // Discord sends it on members; discord-api-types does not list it.
    const unlisted = { unusual_dm_activity_until: null };
    return {
      roles: [...member.roles],
      nick: null,
      avatar: null,
      banner: null,
      joined_at: member.joinedAt,
      premium_since: null,
      flags: 0 as GuildMemberFlags,
      pending: false,
      communication_disabled_until: null,
      ...unlisted,
    };
  }

  /** A public thread of #table by name (case-insensitive), made on first use with a stable id: a request's `thread`. */
  thread(name: string): ThreadRecord {
    const key = name.trim();
    if (!key) throw new Error('a thread needs a name');
    const id = stableSnowflake(`thread:${this.name}/${this.channelName}/${key.toLowerCase()}`);
    let thread = this.threads.get(id);
    if (!thread) {
      thread = { id, name: key, createdAt: new Date().toISOString() };
      this.threads.set(id, thread);
    }
    return thread;
  }

  /** A thread as Discord sends it in an interaction: a public thread whose parent is #table. */
  apiThread(id: string): APIThreadChannel {
    const thread = this.threads.get(id);
    if (!thread) throw new Error(`no thread ${id} in ${this.name}`);
    const last = [...this.state.messages.values()].reverse().find((m) => m.channelId === id && !isEphemeral(m));
    return {
      id,
      type: ChannelType.PublicThread,
      guild_id: this.id,
      name: thread.name,
      parent_id: this.channelId,
      owner_id: this.state.botUser.id,
      last_message_id: last?.id ?? null,
      rate_limit_per_user: 0,
      message_count: 0,
      member_count: 1,
      total_message_sent: 0,
      flags: 0 as ChannelFlags,
      thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: thread.createdAt, locked: false },
    };
  }

  apiChannel(): APITextChannel {
    const last = [...this.state.messages.values()].reverse().find((m) => m.channelId === this.channelId && !isEphemeral(m));
    return {
      id: this.channelId,
      type: ChannelType.GuildText,
      guild_id: this.id,
      name: this.channelName,
      position: 0,
      permission_overwrites: [],
      topic: null,
      nsfw: false,
      last_message_id: last?.id ?? null,
      rate_limit_per_user: 0,
      parent_id: null,
      flags: 0 as ChannelFlags,
    };
  }

  apiGuild(): APIGuild {
    return {
      id: this.id,
      name: this.name,
      icon: null,
      icon_hash: null,
      splash: null,
      discovery_splash: null,
      owner_id: this.state.ownerId,
      afk_channel_id: null,
      afk_timeout: 300,
      widget_enabled: false,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: [...this.roles.values()].map((role) => this.state.apiRole(role)),
      emojis: [],
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: this.channelId,
      system_channel_flags: 0 as GuildSystemChannelFlags,
      rules_channel_id: null,
      max_members: 500000,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: Locale.EnglishUS,
      public_updates_channel_id: null,
      max_video_channel_users: 25,
      nsfw_level: 0,
      stickers: [],
      premium_progress_bar_enabled: false,
      safety_alerts_channel_id: null,
      hub_type: null,
      incidents_data: null,
    };
  }

  /** The GUILD_CREATE payload: the guild plus the gateway-only fields. */
  gatewayGuild(): GatewayGuildCreateDispatchData {
    const members = [...this.members.keys()].map((id) => this.apiMember(id));
    // Discord sends it in GUILD_CREATE; discord-api-types does not list it.
    const unlisted = { lazy: true };
    return {
      ...this.apiGuild(),
      unavailable: false,
      joined_at: this.joinedAt,
      large: false,
      member_count: members.length,
      members,
      channels: [this.apiChannel()],
      threads: [],
      presences: [],
      voice_states: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      ...unlisted,
    };
  }
}

/** Whether the words name subcommand groups and subcommands of the definition, in order. */
function hasSubcommandPath(definition: Json, path: readonly string[]): boolean {
  let level: Json = definition;
  for (const word of path) {
    const options = Array.isArray(level.options) ? (level.options as Json[]) : [];
    const next = options.find((o) => isSubcommandOrGroup(o) && o.name === word.toLowerCase());
    if (!next) return false;
    level = next;
  }
  return true;
}

export function isEphemeral(message: { flags: number }): boolean {
  return (message.flags & MessageFlags.Ephemeral) !== 0;
}

export function guessContentType(filename: string): string {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  const types: Record<string, string> = {
    txt: 'text/plain; charset=utf-8',
    md: 'text/markdown; charset=utf-8',
    csv: 'text/csv; charset=utf-8',
    json: 'application/json; charset=utf-8',
    html: 'text/html; charset=utf-8',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    pdf: 'application/pdf',
  };
  return types[ext] ?? 'application/octet-stream';
}
