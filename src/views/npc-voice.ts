/**
 * The words of NPCs speaking as themselves (`/npc say`, rolls made `as_npc`): a line as it is posted, the private note
 * that answers its command, and what `/config show` says of NPCs' voices in a channel.
 */
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import { escapeMarkdown } from './format.js';
import type { ReplyPayload } from './messages.js';

/** The name of the one webhook per channel the bot makes for its NPCs (Server Settings → Integrations lists it so). */
export const NPC_WEBHOOK_NAME = 'Tac Talk NPCs';

/** The longest `/npc say` line: room left in a message for the NPC's name where it is posted as the bot. */
export const NPC_LINE_MAX = 1800;

/** An NPC's line under its own name (the webhook's message): the text alone, which pings nobody. */
export function npcLine(text: string): ReplyPayload {
  return { content: truncate(text, DISCORD_LIMITS.content), allowedMentions: NO_PINGS };
}

/** An NPC's line where it speaks as the bot: the bot's message, naming the NPC first. */
export function npcLineAsBot(name: string, text: string): ReplyPayload {
  return { content: truncate(`🗣️ **${escapeMarkdown(name)}:** ${text}`, DISCORD_LIMITS.content), allowedMentions: NO_PINGS };
}

/** What answers the command privately once the NPC's message is in the channel under its name. */
export function postedAsNote(name: string): string {
  return `Posted in this channel as **${escapeMarkdown(name)}**.`;
}

/** Why an NPC spoke as the bot in this channel: said privately to the Dispatcher, after the bot's message. */
export const WHY_AS_THE_BOT =
  'The bot lacks the **Manage Webhooks** permission in this channel, so NPCs speak as the bot here. A server admin can grant it to the bot\'s role (Server Settings → Roles) or in this channel\'s permissions; NPCs then speak under their own name and picture.';

/** `/config show`'s line on NPCs' voices in the channel it was asked in. */
export function npcVoiceLine(canManageWebhooks: boolean): string {
  return canManageWebhooks
    ? 'In this channel NPCs speak under their own name and picture (`/npc say`, rolls made `as_npc`), through one webhook the bot makes here, named ' + `"${NPC_WEBHOOK_NAME}".`
    : WHY_AS_THE_BOT;
}
