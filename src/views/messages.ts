/** Plain replies: confirmations and errors. All private unless said otherwise, none ping. */
import { MessageFlags, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed } from 'discord.js';
import type { UserError } from '../errors.js';
import { isRefused } from '../engine/refusals.js';
import { ContestRefusal } from '../engine/systems/tactalk/contest.js';
import { contestRefusalText } from './contest/words.js';
import { NO_PINGS, truncate, DISCORD_LIMITS } from './limits.js';
import { refusalText } from './refusals.js';
import type { UnwritableReason } from '../store/unavailable.js';

export interface ReplyPayload {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  files?: Array<{ attachment: Buffer; name: string }>;
  flags?: MessageFlags.Ephemeral;
  allowedMentions: typeof NO_PINGS;
}

/** A message that is posted or edited in the channel: it cannot be private. */
export type MessageBody = Omit<ReplyPayload, 'flags' | 'files'>;

/**
 * A submitted form's text by field id: a text input's value, or a menu's picks joined by commas; empty when the form
 * has no such field (an older client's form). Read off the interaction by src/discord/form-text.ts.
 */
export type FormText = (fieldId: string) => string;

/** Everything a refused form held, shown back to its sender (a sent form cannot be reopened as it was). */
export function typedBackText(fields: ReadonlyArray<readonly [id: string, text: string]>): string {
  const lines = fields.map(([id, text]) => `- ${id}: ${text ? `\`${text.replace(/`/g, "'").slice(0, 500)}\`` : '(empty)'}`);
  return lines.length ? `\nWhat you typed:\n${lines.join('\n')}` : '';
}


export function privateNote(text: string): ReplyPayload {
  return { content: truncate(text, DISCORD_LIMITS.content), flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS };
}

export function publicNote(text: string): ReplyPayload {
  return { content: truncate(text, DISCORD_LIMITS.content), allowedMentions: NO_PINGS };
}

/**
 * What a user reads for their error: a refusal's words (views/refusals.ts, and a contest's in views/contest/words.ts),
 * any other UserError's message as it is.
 */
export function userErrorText(error: UserError): string {
  if (isRefused(error)) return refusalText(error.refusal);
  return error instanceof ContestRefusal ? contestRefusalText(error.refusal) : error.message;
}

/** A user's error, privately: the error itself (worded by `userErrorText`) or text already worded. */
export function userErrorReply(error: UserError | string): ReplyPayload {
  return privateNote(`⚠️ ${typeof error === 'string' ? error : userErrorText(error)}`);
}

/** A form cannot open once the interaction was acknowledged, as it is when the bot was too slow to answer at once. */
export function formTooLateReply(): ReplyPayload {
  return privateNote('The bot was too slow to open this form in time. Please press the button again.');
}

/** The database too busy or out of reach (src/store/unavailable.ts): nobody's fault, and trying again is the remedy. */
export function databaseTroubleReply(trouble: 'busy' | 'unreachable'): ReplyPayload {
  return userErrorReply(
    trouble === 'busy'
      ? 'The bot’s database is busy right now, so this could not be done. Please try again in a moment.'
      : 'The bot could not reach its database just now, so this may not have been done. Please check, and try again in a moment.',
  );
}

/** What keeps the database from taking writes, in the words of a user's reply and of the operator's log line. */
export const UNWRITABLE_WORDS: Record<UnwritableReason, string> = {
  full: 'the disk is full',
  'read-only': 'it is read-only',
  'disk-error': 'its disk reports an error',
};

/** A write the database refused (src/store/unavailable.ts): nothing the user can mend, so they are sent to the admin. */
export function databaseUnwritableReply(reason: UnwritableReason): ReplyPayload {
  return userErrorReply(`The bot’s database cannot be written right now (${UNWRITABLE_WORDS[reason]}), so this was not saved. Please tell the server admin.`);
}

export function apologyReply(interactionId: string): ReplyPayload {
  return privateNote(
    `Sorry, something went wrong on our side. If it happens again, tell the server admin this reference: \`${interactionId}\`.`,
  );
}
