/**
 * NPCs speak as themselves: an NPC's line (`/npc say`) or one-shot roll result (a roll made `as_npc`) is posted
 * through the channel's webhook under the NPC's name and picture, and its command is answered privately. Where the
 * bot may not manage webhooks (the interaction's app_permissions say so), or the post fails, the answer is the bot's
 * own message as before, which names the NPC.
 *
 * One webhook per channel, made once and kept in the store. After a restart that lost the row (or a row never
 * written), the bot's own webhook in the channel is found (GET, application_id = ours) before one is made. A webhook
 * someone deleted answers 404 Unknown Webhook: it is forgotten and made anew, once. In a thread the parent channel's
 * webhook posts with `thread_id`.
 *
 * A webhook's token lets anyone post in the channel: it stays in the store. discord.js's errors carry the request's
 * URL, token included, so they are never logged whole here: only their status, code and Discord's message.
 */
import { DiscordAPIError, HTTPError, MessageFlags, MessageFlagsBitField, PermissionFlagsBits, RESTJSONErrorCodes, Routes, type ChatInputCommandInteraction, type RepliableInteraction } from 'discord.js';
import type { RESTGetAPIChannelWebhooksResult, RESTPostAPIChannelWebhookResult, RESTPostAPIWebhookWithTokenJSONBody } from 'discord-api-types/v10';
import type { ChannelWebhook } from '../store/channel-webhooks.js';
import { NO_PINGS, usableWebhookName } from '../views/limits.js';
import { privateNote } from '../views/messages.js';
import { NPC_WEBHOOK_NAME, postedAsNote } from '../views/npc-voice.js';
import type { HandlerContext } from './command.js';
import type { AnswerPayload } from './responder.js';

/** Who speaks: an NPC's name and, if it has one, its picture (`/npc avatar`). */
export interface NpcVoice {
  name: string;
  avatarUrl?: string;
}

/** Whether the bot may make and use webhooks in the interaction's channel (the permissions Discord sent with it). */
export function mayManageWebhooks(interaction: Pick<RepliableInteraction, 'appPermissions'>): boolean {
  return interaction.appPermissions?.has(PermissionFlagsBits.ManageWebhooks) ?? false;
}

/** The NPC a roll is made for with `as_npc` (the sheet rollerSheet read), or null for a member's own roll. */
export function asNpcRoller(interaction: ChatInputCommandInteraction, roller: NpcVoice | null | undefined): NpcVoice | null {
  return interaction.options.getString('as_npc') !== null && roller ? roller : null;
}

/**
 * Answers with what an NPC says or rolled: through the channel's webhook under its name (the command then answered
 * privately), or, where that cannot be, as the bot's own message as before. `npc` null: the roller is a member, the
 * bot answers as ever.
 */
export async function answerAsNpc(interaction: RepliableInteraction, context: HandlerContext, npc: NpcVoice | null, payload: AnswerPayload, asBot: AnswerPayload = payload): Promise<void> {
  if (npc && (await postAsNpc(interaction, context, npc, payload))) {
    await context.answer.reply(privateNote(postedAsNote(npc.name)));
    return;
  }
  await context.answer.reply(asBot);
}

/**
 * Posts `payload` in the interaction's channel under the NPC's name; false when it was not posted (nothing was, the
 * caller answers as the bot). Only a one-shot public message goes this way: a private one stays the interaction's,
 * and one with buttons or files stays the bot's, as the bot edits what its buttons change.
 */
export async function postAsNpc(interaction: RepliableInteraction, context: HandlerContext, npc: NpcVoice, payload: AnswerPayload): Promise<boolean> {
  if (!speakable(payload) || !usableWebhookName(npc.name) || !mayManageWebhooks(interaction) || !interaction.channelId) return false;
  const body = webhookBody(npc, payload);
  let channelId = interaction.channelId;
  try {
    // A thread the bot has not heard of yet (made before it started, not in its cache) is asked for: it posts through
    // its parent's webhook.
    const channel = interaction.channel ?? (await interaction.client.channels.fetch(interaction.channelId));
    const thread = channel?.isThread() ? channel : null;
    channelId = thread?.parentId ?? channelId;
    const where = { guildId: context.guildId, channelId };
    let webhook = await channelWebhook(interaction, context, where);
    try {
      await execute(interaction, webhook, body, thread?.id);
    } catch (error) {
      if (!(error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownWebhook)) throw error;
      // Deleted by someone (Server Settings → Integrations): forget it and make one anew, once.
      context.log.info({ channelId, webhookId: webhook.webhookId }, "an NPC webhook was deleted; making the channel's anew");
      await context.store.channelWebhooks.forget(channelId, webhook.webhookId);
      webhook = await channelWebhook(interaction, context, where);
      await execute(interaction, webhook, body, thread?.id);
    }
    return true;
  } catch (error) {
    context.log.warn({ channelId, npc: npc.name, failure: failureOf(error) }, 'an NPC could not speak through its webhook; it speaks as the bot');
    return false;
  }
}

/** A message a webhook may post for an NPC: public, without buttons or files. */
function speakable(payload: AnswerPayload): boolean {
  const flags = new MessageFlagsBitField((payload.flags as number | undefined) ?? 0);
  if (flags.has(MessageFlags.Ephemeral)) return false;
  return (payload.components?.length ?? 0) === 0 && (payload.files?.length ?? 0) === 0;
}

function webhookBody(npc: NpcVoice, payload: AnswerPayload): RESTPostAPIWebhookWithTokenJSONBody {
  const embeds = (payload.embeds ?? []).map((embed) => ('toJSON' in embed && typeof embed.toJSON === 'function' ? embed.toJSON() : embed));
  return {
    ...(payload.content ? { content: payload.content } : {}),
    ...(embeds.length ? { embeds: embeds as RESTPostAPIWebhookWithTokenJSONBody['embeds'] } : {}),
    username: npc.name,
    ...(npc.avatarUrl ? { avatar_url: npc.avatarUrl } : {}),
    // User text never pings, whatever the payload asked.
    allowed_mentions: NO_PINGS,
  };
}

async function execute(interaction: RepliableInteraction, webhook: ChannelWebhook, body: RESTPostAPIWebhookWithTokenJSONBody, threadId: string | undefined): Promise<void> {
  const query = new URLSearchParams({ wait: 'true', ...(threadId ? { thread_id: threadId } : {}) });
  await interaction.client.rest.post(Routes.webhook(webhook.webhookId, webhook.token), { body, query, auth: false });
}

/** Looks made for the same channel at once share one look (and one webhook made), in this process. */
const lookups = new Map<string, Promise<ChannelWebhook>>();

/** The channel's webhook: the one kept, else the bot's own found in the channel, else one made now; kept either way. */
function channelWebhook(interaction: RepliableInteraction, context: HandlerContext, where: { guildId: string; channelId: string }): Promise<ChannelWebhook> {
  const running = lookups.get(where.channelId);
  if (running) return running;
  const lookup = findOrMake(interaction, context, where).finally(() => lookups.delete(where.channelId));
  lookups.set(where.channelId, lookup);
  return lookup;
}

async function findOrMake(interaction: RepliableInteraction, context: HandlerContext, where: { guildId: string; channelId: string }): Promise<ChannelWebhook> {
  const kept = await context.store.channelWebhooks.get(where.guildId, where.channelId);
  if (kept) return kept;
  const { rest, application } = interaction.client;
  const listed = (await rest.get(Routes.channelWebhooks(where.channelId))) as RESTGetAPIChannelWebhooksResult;
  const own = listed.find((webhook) => webhook.application_id === (application?.id ?? interaction.applicationId) && 'token' in webhook && webhook.token);
  const made = own ?? ((await rest.post(Routes.channelWebhooks(where.channelId), { body: { name: NPC_WEBHOOK_NAME }, reason: 'NPCs speak under their own names (/npc say, rolls as_npc)' })) as RESTPostAPIChannelWebhookResult);
  if (!('token' in made) || !made.token) throw new Error('Discord gave the new webhook no token');
  const webhook: ChannelWebhook = { ...where, webhookId: made.id, token: made.token };
  await context.store.channelWebhooks.save(webhook);
  return webhook;
}

/** What went wrong, without the request's URL (it holds the webhook's token). */
function failureOf(error: unknown): Record<string, unknown> {
  if (error instanceof DiscordAPIError) return { status: error.status, code: error.code, message: error.message };
  if (error instanceof HTTPError) return { status: error.status, message: error.message };
  return { message: error instanceof Error ? error.message : String(error) };
}
