/** Play sessions' words (commit and reveal): a session opened, shown, closed with its secret, and a roll's seed note. */
import { MessageFlags, type APIEmbed } from 'discord.js';
import { seedNoteOfRoll, type SeedNote } from '../store/seed-notes.js';
import type { PlaySessionView } from '../store/sessions.js';
import { escapeMarkdown } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';

const COLOR = { opened: 0x2e86c1, closed: 0x7d3c98 } as const;

/** How anyone checks a journal against a published secret (docs/fair-dice.md). */
export const VERIFY_COMMAND = 'npx tsx src/verify-journal.ts <journal file>';

/** What a commitment means, in one sentence. */
export const COMMITMENT_MEANS =
  "This is the SHA-256 hash of a secret the bot drew before any of the session's rolls: every roll's seed is derived from that secret and the roll's seed number, and the secret is published when the session closes, so anyone can recompute every roll and check that the bot could not pick its dice after the fact.";

/** "session 3 “Heist at the docks”" or "session 3 (the day 2026-11-27, UTC)". */
export function sessionName(session: Pick<PlaySessionView, 'id' | 'kind' | 'day' | 'title'>): string {
  if (session.kind === 'day') return `session ${session.id} (the day ${session.day ?? '?'}, UTC)`;
  return session.title ? `session ${session.id} “${escapeMarkdown(session.title)}”` : `session ${session.id}`;
}

/** What a roll's footer adds about its seed: its number in its session, and a day's commitment on the day's first. */
export function seedNoteText(note: SeedNote | null): string {
  if (!note) return '';
  const at = ` · seed ${note.seedIndex} of session ${note.sessionId}`;
  return note.dayCommitment ? `${at} · today's session commits to SHA-256 ${note.dayCommitment} (see /session show)` : at;
}

/** The seed note of the roll stored under `rollId`, for a message that names its roll outside `rollFooter`. */
export function rollSeedNote(rollId: string): string {
  return seedNoteText(seedNoteOfRoll(rollId));
}

const when = (date: Date) => `<t:${Math.floor(date.getTime() / 1000)}:f>`;

function revealedField(closed: PlaySessionView): APIEmbed['fields'] {
  return [
    { name: `Secret of ${truncate(sessionName(closed), 200)}`, value: `\`${closed.secret ?? ''}\`` },
    { name: 'It was committed to as', value: `\`${closed.commitment}\`` },
  ];
}

/** `/session open`'s public post: the new session's commitment and what it means; the session it closed, revealed. */
export function sessionOpenedReply(opened: PlaySessionView, closed: PlaySessionView | null): ReplyPayload {
  const embed: APIEmbed = {
    color: COLOR.opened,
    title: truncate(`🎲 ${sessionName(opened).replace(/^s/, 'S')} is open`, DISCORD_LIMITS.embedTitle),
    description: truncate(`Commitment (SHA-256): \`${opened.commitment}\`\n${COMMITMENT_MEANS}`, DISCORD_LIMITS.embedDescription),
    fields: closed ? [{ name: 'Closed first', value: `${sessionName(closed)}: its secret is published below.` }, ...revealedField(closed)!] : [],
    footer: { text: `Each roll's message shows its seed number in session ${opened.id}. /session close ends it and publishes the secret.` },
  };
  return { embeds: [embed], allowedMentions: NO_PINGS };
}

/** `/session close` and `/session reveal`: the secret published, with how to check it and the journal. */
export function sessionClosedReply(closed: PlaySessionView, rolls: number, journal: string): ReplyPayload {
  const embed: APIEmbed = {
    color: COLOR.closed,
    title: truncate(`🔓 ${sessionName(closed).replace(/^s/, 'S')} is closed: its secret is published`, DISCORD_LIMITS.embedTitle),
    description: truncate(
      [
        `${rolls === 1 ? '1 roll was' : `${rolls} rolls were`} made from its seeds. Its SHA-256 must equal the commitment published when it opened, and every roll's seed is HMAC-SHA256(secret, "${closed.id}-<seed number>").`,
        `Its journal is attached: run \`${VERIFY_COMMAND}\` on either file, in a copy of the bot's repository, to recompute every roll from the secret (\`/journal export\` writes it again later).`,
      ].join('\n'),
      DISCORD_LIMITS.embedDescription,
    ),
    fields: revealedField(closed),
    footer: { text: 'Later rolls use a new session with a new commitment.' },
  };
  return { content: truncate(journal, DISCORD_LIMITS.content), embeds: [embed], allowedMentions: NO_PINGS };
}

/** `/session show`: the open session, its commitment and its rolls so far; the last revealed secret. */
export function sessionShowReply(current: PlaySessionView, rolls: number, lastClosed: PlaySessionView | null, share: boolean): ReplyPayload {
  const lines = [
    `Commitment (SHA-256): \`${current.commitment}\``,
    COMMITMENT_MEANS,
    `Opened ${when(current.openedAt)}${current.openedBy ? ` by <@${current.openedBy}>` : ''} · ${rolls === 1 ? '1 roll' : `${rolls} rolls`} so far.`,
    current.kind === 'day'
      ? 'A day session closes at the end of its day (UTC), when a Dispatcher opens a play session (`/session open`), or now with `/session reveal`.'
      : 'A Dispatcher closes it with `/session close`, which publishes its secret.',
  ];
  const embed: APIEmbed = {
    color: COLOR.opened,
    title: truncate(`🎲 Now: ${sessionName(current)}`, DISCORD_LIMITS.embedTitle),
    description: truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription),
    fields: lastClosed ? [{ name: 'Last closed', value: `${sessionName(lastClosed)}, closed ${when(lastClosed.closedAt ?? lastClosed.openedAt)}` }, ...revealedField(lastClosed)!] : [],
  };
  return { embeds: [embed], allowedMentions: NO_PINGS, ...(share ? {} : { flags: MessageFlags.Ephemeral }) };
}

/** `/session close` where no play session is open. */
export function noPlaySessionText(current: PlaySessionView | null): string {
  if (current?.kind === 'day') {
    return `No play session is open: today's rolls come from ${sessionName(current)}. \`/session reveal\` closes it now and publishes its secret; \`/session open title:\` starts a play session.`;
  }
  return 'No session is open, so there is nothing to close. `/session open title:` starts a play session; without one, each day (UTC) is a session of its own from its first roll.';
}

/** `/session reveal` where the open session is a play session. */
export function playSessionOpenText(current: PlaySessionView): string {
  return `${sessionName(current).replace(/^s/, 'S')} is a play session: \`/session close\` ends it and publishes its secret. \`/session reveal\` closes a day session early.`;
}
