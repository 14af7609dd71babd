/**
 * The context-menu commands' words and forms (right-click a message or a member → Apps): which rolls a message of
 * the bot shows, the refusals of a message that holds none, the "Challenge to a contest" form and its reader.
 */
import { ModalBuilder, TextInputBuilder, TextInputStyle, type APIEmbed } from 'discord.js';
import { CONTEST_LIMITS } from '../engine/systems/tactalk/contest.js';
import { componentIds, type ComponentIds } from './component-id.js';
import { escapeMarkdown } from './format.js';
import { DISCORD_LIMITS, truncate } from './limits.js';
import type { FormText } from './messages.js';
import { archetypesField, formLabel, readRole, roleField, skillField, type AcceptSheet } from './contest/forms.js';

/** The letters a roll id is written in (the roll log's ids, src/store/rolls.ts): no 0/o, 1/l/i. */
const ROLL_ID_IN_TEXT = /(?<![\w-])[23456789abcdefghjkmnpqrstuvwxyz]{8}(?![\w-])/g;

/** What of a message may name its rolls: its text and its embeds' footers and descriptions. */
export interface ShownMessage {
  content: string;
  embeds: ReadonlyArray<Pick<APIEmbed, 'footer' | 'description'>>;
}

/**
 * The roll ids a message of the bot shows, in the order shown, each once: a roll's footer (`Roll abcd2345 · …`), a
 * contest's or a tracker's (`rolls abcd2345, efgh6789 · …`), a cumulative roll's lines. Candidates only: words of
 * eight such letters that the roll log does not know are dropped by the caller.
 */
export function rollIdsShown(message: ShownMessage): string[] {
  const texts = [...message.embeds.flatMap((embed) => [embed.footer?.text ?? '', embed.description ?? '']), message.content];
  const found = texts.flatMap((text) => [...text.matchAll(ROLL_ID_IN_TEXT)].map((match) => match[0]));
  return [...new Set(found)];
}

export const NOT_MY_MESSAGE_TEXT = 'This message is not one of mine, so it holds no roll of mine. Use “Replay this roll” on a roll’s result that I posted, or `/roll replay id:…` with the id in its footer.';
export const NO_ROLL_TEXT = 'This message holds no roll of mine: a roll’s result shows its id in its footer (`Roll abcd2345`). Use “Replay this roll” on such a message, or `/roll replay id:…`.';

/** Said below a replay when the message showed several rolls (a contest's rounds, a tracker's): the first is replayed. */
export function otherRollsNote(others: readonly string[]): string {
  const shown = others.slice(0, 10).map((id) => `\`/roll replay id:${id}\``);
  const more = others.length > shown.length ? ` and ${others.length - shown.length} more` : '';
  return `That message shows ${others.length + 1} rolls; this is the first. The others: ${shown.join(', ')}${more}.`;
}

/** Said below a member's sheet when they keep others (the current one is shown, as `/sheet show user:` does). */
export function otherSheetsNote(memberLabel: string, others: readonly string[]): string | undefined {
  if (others.length === 0) return undefined;
  const names = others.slice(0, 10).map((name) => `**${escapeMarkdown(name)}**`);
  const more = others.length > names.length ? ` and ${others.length - names.length} more` : '';
  return truncate(`${escapeMarkdown(memberLabel)} also keeps ${names.join(', ')}${more}: \`/sheet show user:… name:…\` shows one.`, DISCORD_LIMITS.content);
}

// ---- Challenge to a contest --------------------------------------------------------------------------------

/** The challenge form's submit: `contestmenu:<opponent's user id>`. */
export interface ChallengeFormValue {
  opponentId: string;
}

export const challengeFormIds: ComponentIds<ChallengeFormValue> = componentIds<ChallengeFormValue>('contestmenu', {
  write: ({ opponentId }) => [opponentId],
  read: ([id, ...rest]) => (id && /^\d{1,20}$/.test(id) && rest.length === 0 ? { opponentId: id } : null),
  // Opened by a context-menu command, not a message's control: the router takes it without a message.
  origin: () => ({ formOpenedBy: [] }),
});

/** The challenge form's fields, by id: `challengeModal` writes them, `readChallengeForm` reads them. */
const CHALLENGE_FIELDS = { intent: 'intent', stakes: 'stakes', role: 'role', skill: 'skill', archetypes: 'archetypes' } as const;

export interface ChallengeForm {
  intent: string;
  stakes: string;
  role: 'attacker' | 'defender';
  skill: string;
  archetypes: string | null;
}

export function readChallengeForm(text: FormText): ChallengeForm {
  const archetypes = text(CHALLENGE_FIELDS.archetypes).trim();
  return { intent: text(CHALLENGE_FIELDS.intent), stakes: text(CHALLENGE_FIELDS.stakes), role: readRole(text(CHALLENGE_FIELDS.role)), skill: text(CHALLENGE_FIELDS.skill), archetypes: archetypes || null };
}

/**
 * What `/contest start` asks, as a form: intent, stakes, and the same role, skill and archetype fields as the Accept
 * form (src/views/contest/forms.ts). The opponent is who was clicked.
 */
export function challengeModal(opponentId: string, opponentName: string, sheet: AcceptSheet) {
  const intent = formLabel('What does your Operator try to do?').setTextInputComponent(
    new TextInputBuilder().setCustomId(CHALLENGE_FIELDS.intent).setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(CONTEST_LIMITS.intentLength),
  );
  const stakes = formLabel(`If you win, what happens to ${opponentName}?`).setTextInputComponent(
    new TextInputBuilder().setCustomId(CHALLENGE_FIELDS.stakes).setStyle(TextInputStyle.Paragraph).setRequired(true).setMaxLength(CONTEST_LIMITS.stakesLength),
  );
  return new ModalBuilder()
    .setCustomId(challengeFormIds.encode({ opponentId }))
    .setTitle(truncate(`Challenge ${opponentName} to a contest`, DISCORD_LIMITS.formTitle))
    .addLabelComponents(
      intent,
      stakes,
      roleField(CHALLENGE_FIELDS.role),
      skillField(CHALLENGE_FIELDS.skill, sheet, 'Its aptitude is their Challenge Level.'),
      archetypesField(CHALLENGE_FIELDS.archetypes, sheet, 'Each once.'),
    );
}

// ---- Add to journal --------------------------------------------------------------------------------------

export const ADDED_TO_JOURNAL_TEXT = 'Added to the journal.';
export const NOTHING_TO_JOURNAL_TEXT = 'This message has no text to keep (no words, no embed with a title or text): add a line of your own with `/journal note` instead.';

/** What of a message the journal keeps: its author, then its words, else each embed's title and text. */
export interface JournalSource {
  author: string;
  content: string;
  embeds: ReadonlyArray<Pick<APIEmbed, 'title' | 'description'>>;
}

/** The note a message becomes (`Kat: …`), cut to `max` characters; null when the message has no text at all. */
export function journalNoteOf(message: JournalSource, max: number): string | null {
  const embedText = message.embeds.map((embed) => [embed.title ? `**${embed.title}**` : '', embed.description ?? ''].filter(Boolean).join('\n')).filter(Boolean);
  const body = [message.content.trim(), ...embedText].filter(Boolean).join('\n');
  if (!body) return null;
  return truncate(`${message.author}: ${body}`, max);
}
