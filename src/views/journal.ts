/**
 * The session journal as text: a span's story (entries and rolls, interleaved by time) as Markdown and as a
 * self-contained HTML page, each with the proof the verifier reads (src/engine/commitment.ts). Pure: the command
 * gathers the rows, this only words them.
 */
import { JOURNAL_PROOF_HTML_ID, JOURNAL_PROOF_MARKDOWN_FENCE, type JournalProof, type JournalProofRoll, type JournalProofSession } from '../engine/commitment.js';
import { d100FromDice } from '../engine/dice.js';
import type { JournalDetails, JournalEntry } from '../engine/journal.js';
import { escapeMarkdown } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody } from './messages.js';

const SEPARATOR = ' · ';

function isD100(value: object): value is { tens: number; ones: number } {
  const keys = Object.keys(value);
  return keys.length === 2 && typeof (value as { tens?: unknown }).tens === 'number' && typeof (value as { ones?: unknown }).ones === 'number';
}

/** Stored dice of any kind, in plain words: a D100 with its two dice, numbers as they fell, nested parts in brackets. */
function diceText(dice: unknown): string {
  if (dice === null || dice === undefined) return 'none';
  if (typeof dice === 'number' || typeof dice === 'boolean' || typeof dice === 'string') return String(dice);
  if (Array.isArray(dice)) return `[${dice.map(diceText).join(', ')}]`;
  if (typeof dice === 'object') {
    if (isD100(dice)) return `D100 ${d100FromDice(dice.tens, dice.ones).value} (${dice.tens}, ${dice.ones})`;
    return Object.entries(dice)
      .map(([key, value]) => `${key} ${diceText(value)}`)
      .join('; ');
  }
  return String(dice);
}

/**
 * A roll's visible line in a journal, from its proof fields only: the verifier recomputes the roll from its seed,
 * renders this line anew and looks for it in the document, so a die changed in the text is caught. Plain text, no
 * Markdown or HTML syntax, so the very same line is in the .md and in the page's text; who rolled is written before
 * it, outside it.
 */
export function journalRollLine(roll: JournalProofRoll): string {
  const dice = diceText(roll.dice);
  const parts = [`roll ${roll.id}`, roll.kind, isD100Only(roll.dice) ? dice : `dice ${dice}`];
  if (roll.total !== null) parts.push(`total ${roll.total}`);
  if (roll.success !== null) parts.push(roll.success ? 'success' : 'failure');
  parts.push(roll.sessionId !== null && roll.seedIndex !== null ? `seed ${roll.seedIndex} of session ${roll.sessionId}` : `seed ${roll.seed}`);
  return parts.join(SEPARATOR);
}

function isD100Only(dice: unknown): boolean {
  return typeof dice === 'object' && dice !== null && !Array.isArray(dice) && isD100(dice);
}

/**
 * The proof as JSON safe inside a Markdown fence and an HTML script element: characters that could close either
 * (`<`, `>`, `&`, backticks, and the line separators old parsers split on) are written as JSON escapes, which
 * JSON.parse reads back unchanged.
 */
export function journalProofJson(proof: JournalProof): string {
  return JSON.stringify(proof, null, 1).replace(/[<>&`\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The proof as the Markdown journal ends with it: a fenced block the verifier finds by its opening line. */
export function journalProofMarkdown(proof: JournalProof): string {
  return `${JOURNAL_PROOF_MARKDOWN_FENCE}\n${journalProofJson(proof)}\n\`\`\`\n`;
}

/** The proof as the HTML page carries it: data, never run, found by its id. */
export function journalProofHtml(proof: JournalProof): string {
  return `<script type="application/json" id="${JOURNAL_PROOF_HTML_ID}">\n${journalProofJson(proof)}\n</script>\n`;
}

// ——— The journal's documents ———

/** Items one export holds at most (entries and rolls together): past it the journal says where it stopped. */
export const JOURNAL_MAX_ITEMS = 5000;
/**
 * Bytes one file holds at most. Both files go in one message, and Discord takes at most 10 MiB of files in a bot's
 * message, so each file keeps under half of that, the proof included.
 */
export const JOURNAL_MAX_FILE_BYTES = 4_500_000;
/** Room kept in each file for its head, its end and the proof's sessions. */
const FRAME_BYTES = 64_000;

/** A roll as the journal is given it (src/store/journal.ts `JournalRoll`, kept structural so the view stays pure). */
export interface JournalRollItem extends Omit<JournalProofRoll, 'createdAt'> {
  userId: string;
  createdAt: Date;
  npc: string | null;
  secret: boolean;
}

export interface JournalDocumentInput {
  guildId: string;
  serverName: string;
  /** The span asked for, and how it was asked ("since the scene The docks", "the last 2 hours"…). */
  from: Date;
  to: Date;
  spanWords: string;
  /** The `/journal export` options that give the rest after a cut, beside `since:` (e.g. ` until:…`). */
  untilOption: string;
  entries: readonly JournalEntry[];
  rolls: readonly JournalRollItem[];
  sessions: readonly JournalProofSession[];
  /** Members' names by id; a member not found reads as "member <id>". */
  names: ReadonlyMap<string, string>;
  includeSecret: boolean;
  madeAt: Date;
  /** Test seams: the bounds (default JOURNAL_MAX_ITEMS, JOURNAL_MAX_FILE_BYTES). */
  maxItems?: number;
  maxFileBytes?: number;
}

export interface JournalDocuments {
  markdown: string;
  html: string;
  /** `journal-<date>` (the span's end, UTC): the files' name without extension. */
  baseName: string;
  /** Entries and rolls shown. */
  shown: number;
  /** Where the journal stopped short of its span, and the `since:` that gives the rest; null when it holds it all. */
  cut: { at: Date; since: string; reason: 'items' | 'bytes' } | null;
}

/** A piece of a line: the bot's own words, user text (escaped in each format), a roll's line, or a link. */
type Piece = string | { user: string } | { roll: string } | { link: string; label: string };

interface Item {
  at: Date;
  /** A scene marker: a heading of its own. */
  heading: boolean;
  pieces: Piece[];
  /** The proof of the roll this item shows. */
  proof: JournalProofRoll | null;
}

const HOUR_MINUTE = (date: Date) => date.toISOString().slice(11, 16);

/** One line of user text: the journal is a list, so a note's line breaks read as spaces. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function userPiece(text: string): Piece {
  return { user: oneLine(text) };
}

const DISCORD_MESSAGE_LINK = /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/channels\/\d+\/\d+\/\d+$/;

function signedNumber(value: number): string {
  return value < 0 ? `−${-value}` : `+${value}`;
}

function calledPartPieces(part: JournalDetails<'call'>['parts'][number]): Piece[] {
  const archetypes = part.archetypes.map((name) => ` +${name}`).join('');
  const modifier = part.modifier !== 0 ? ` ${signedNumber(part.modifier)}` : '';
  return [userPiece(`${part.skill}${archetypes}`), `${modifier} ${part.challengeLevel === null ? 'against a hidden CL' : `against CL ${part.challengeLevel}`}`];
}

const CONTEST_END_WORDS: Record<string, string> = {
  declined: 'the challenge was declined',
  'not-agreed': 'the challenger did not agree to the terms',
  withdrew: 'it was withdrawn',
  'both-defenders': 'both sides chose to defend',
  cancelled: 'a Dispatcher cancelled it',
  'tie-accepted': 'both accepted a tie',
  'tie-rounds': 'it tied as many rounds as a contest plays',
  'no-skill-left': 'a side with no skill left accepted the tie',
  expired: 'nobody moved in time',
};

/** The words of one entry (an answer to a call is told with its roll instead, so it has none of its own). */
function entryPieces(entry: JournalEntry, who: (id: string | null) => string): Piece[] | null {
  switch (entry.kind) {
    case 'note': {
      const { text, messageUrl } = entry.details;
      const link: Piece[] = messageUrl && DISCORD_MESSAGE_LINK.test(messageUrl) ? [' (', { link: messageUrl, label: 'message' }, ')'] : [];
      return [`${who(entry.userId)} notes: `, userPiece(text), ...link];
    }
    case 'scene':
      return ['Scene: ', userPiece(entry.details.title)];
    case 'intent': {
      const { operatorName, intent, outcome } = entry.details;
      return [
        `${who(entry.userId)} states an intent${operatorName ? ' for ' : ''}`,
        ...(operatorName ? [userPiece(operatorName)] : []),
        ': ',
        userPiece(intent),
        ...(outcome ? ['. If it works: ', userPiece(outcome)] : []),
        ` (request ${entry.details.requestId})`,
      ];
    }
    case 'call': {
      const call = entry.details;
      const pieces: Piece[] = [`${who(call.dispatcherId || null)} calls for a ${call.kind === 'linked' ? 'linked roll' : 'roll'} from ${who(call.playerId)}: `];
      call.parts.forEach((part, index) => pieces.push(...(index > 0 ? ['; '] : []), ...calledPartPieces(part)));
      if (call.intent) pieces.push('. Stakes: ', userPiece(call.intent), ...(call.outcome ? [' → ', userPiece(call.outcome)] : []));
      if (call.consequence || call.consequenceTable) {
        pieces.push('. If it fails: ', ...(call.consequence ? [userPiece(call.consequence)] : []));
        const sentence = call.consequence !== null && /[.!?…]$/.test(call.consequence.trim());
        if (call.consequenceTable) pieces.push(call.consequence ? (sentence ? ' Then a roll on the table ' : ', then a roll on the table ') : 'a roll on the table ', userPiece(call.consequenceTable));
      }
      pieces.push(` (request ${call.requestId})`);
      return pieces;
    }
    case 'decline':
      return [`${who(entry.details.playerId)} declines the roll: nothing is rolled (request ${entry.details.requestId})`];
    case 'settled': {
      const how = { granted: 'lets it happen with no roll', cancelled: 'cancels the request', withdrawn: 'withdraws the intent' }[entry.details.how];
      // A stated intent cancelled before any Dispatcher answered it does not say which one cancelled it.
      const by = entry.userId === null && entry.details.how !== 'withdrawn' ? 'A Dispatcher' : who(entry.userId);
      return [`${by} ${how} (request ${entry.details.requestId})`];
    }
    case 'answer':
      return null;
    case 'contest-terms': {
      const { contestId, intent, sides } = entry.details;
      const pieces: Piece[] = [`Contest ${contestId} agreed: `, userPiece(intent)];
      for (const side of sides) pieces.push('. If ', userPiece(side.name), ' wins: ', userPiece(side.stakes));
      return pieces;
    }
    case 'contest-end': {
      const end = entry.details;
      const rounds = `after ${end.rounds} round${end.rounds === 1 ? '' : 's'}`;
      if (end.result === 'won') return [`Contest ${end.contestId}: `, userPiece(end.winnerName ?? who(end.winnerId)), ' wins', ...(end.loserName ? [' over ', userPiece(end.loserName)] : []), ` ${rounds}`];
      if (end.result === 'nobody') return [`Contest ${end.contestId}: both sides failed, nobody wins (${rounds})`];
      const reason = end.reason ? (CONTEST_END_WORDS[end.reason] ?? end.reason) : null;
      return [`Contest ${end.contestId} ${end.result === 'expired' ? 'expired' : 'ended'} with no winner${reason ? `: ${reason}` : ''}`];
    }
  }
}

/** What a roll answered, from the entries that tell it ("answering the call of request 3"). */
function answerWords(answer: JournalDetails<'answer'>): Piece[] {
  if (answer.answers === 'consequence') return [`, the consequence of request ${answer.requestId}`, ...(answer.table ? [' on the table ', userPiece(answer.table)] : [])];
  return [`, answering the call of request ${answer.requestId}`];
}

export function journalProofRoll(roll: JournalRollItem): JournalProofRoll {
  return {
    id: roll.id,
    kind: roll.kind,
    system: roll.system,
    inputs: roll.inputs,
    seed: roll.seed,
    sessionId: roll.sessionId,
    seedIndex: roll.seedIndex,
    dice: roll.dice,
    total: roll.total,
    success: roll.success,
    createdAt: roll.createdAt.toISOString(),
  };
}

/** A contest round's roll says which contest it belongs to (its stored inputs name it). */
function contestRound(roll: JournalRollItem): { contestId: number; round: number } | null {
  if (roll.kind !== 'contest' || typeof roll.inputs !== 'object' || roll.inputs === null) return null;
  const { contestId, round } = roll.inputs as { contestId?: unknown; round?: unknown };
  return typeof contestId === 'number' && typeof round === 'number' ? { contestId, round } : null;
}

function rollItem(roll: JournalRollItem, answer: JournalDetails<'answer'> | undefined, who: (id: string | null) => string): Item {
  const proof = journalProofRoll(roll);
  const pieces: Piece[] = [who(roll.userId)];
  if (roll.npc) pieces.push(' for the NPC ', userPiece(roll.npc));
  const round = contestRound(roll);
  if (round) pieces.push(`, round ${round.round} of contest ${round.contestId}`);
  if (answer) pieces.push(...answerWords(answer));
  pieces.push(roll.secret ? ' (secret, shown to Dispatchers)' : '', ': ', { roll: journalRollLine(proof) });
  return { at: roll.createdAt, heading: false, pieces, proof };
}

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function markdownOf(pieces: readonly Piece[]): string {
  return pieces
    .map((piece) => (typeof piece === 'string' ? piece : 'user' in piece ? escapeMarkdown(piece.user) : 'roll' in piece ? `\`${piece.roll}\`` : `<${piece.link}>`))
    .join('');
}

function htmlOf(pieces: readonly Piece[]): string {
  return pieces
    .map((piece) =>
      typeof piece === 'string'
        ? escapeHtml(piece)
        : 'user' in piece
          ? `<span class="said">${escapeHtml(piece.user)}</span>`
          : 'roll' in piece
            ? `<code>${escapeHtml(piece.roll)}</code>`
            : `<a href="${escapeHtml(piece.link)}">${escapeHtml(piece.label)}</a>`,
    )
    .join('');
}

function markdownItem(item: Item): string {
  return item.heading ? `\n## ${markdownOf(item.pieces)}\n*${item.at.toISOString().slice(0, 16).replace('T', ' ')} UTC*\n\n` : `- **${HOUR_MINUTE(item.at)}** ${markdownOf(item.pieces)}\n`;
}

function htmlItem(item: Item): string {
  const time = `<time datetime="${item.at.toISOString()}">${HOUR_MINUTE(item.at)}</time>`;
  return item.heading ? `<h2>${htmlOf(item.pieces)} ${time}</h2>\n` : `<li>${time} ${htmlOf(item.pieces)}</li>\n`;
}

/** The span's items, oldest first: entries and rolls by when they happened, an entry before a roll made the same moment. */
function itemsOf(input: JournalDocumentInput, who: (id: string | null) => string): Item[] {
  const answers = new Map<string, JournalDetails<'answer'>>();
  for (const entry of input.entries) if (entry.kind === 'answer' && entry.rollId) answers.set(entry.rollId, entry.details);
  const entryItems = input.entries.flatMap((entry): Item[] => {
    const pieces = entryPieces(entry, who);
    return pieces ? [{ at: entry.createdAt, heading: entry.kind === 'scene', pieces, proof: null }] : [];
  });
  const rollItems = input.rolls.map((roll) => rollItem(roll, answers.get(roll.id), who));
  const items: Item[] = [];
  let e = 0;
  let r = 0;
  while (e < entryItems.length || r < rollItems.length) {
    const entry = entryItems[e];
    const roll = rollItems[r];
    if (entry && (!roll || entry.at.getTime() <= roll.at.getTime())) {
      items.push(entry);
      e++;
    } else {
      items.push(roll!);
      r++;
    }
  }
  return items;
}

const HTML_STYLE = `
:root { color-scheme: light dark; --ink: #1d1f24; --paper: #fbfaf7; --soft: #5d6470; --line: #d9d6cf; --mark: #7a4b00; }
@media (prefers-color-scheme: dark) { :root { --ink: #e6e4df; --paper: #17181b; --soft: #a3a9b3; --line: #34363b; --mark: #f0b35a; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; padding-top: 0.75rem; border-top: 2px solid var(--line); color: var(--mark); }
h2 time { font-size: 0.8rem; font-weight: normal; color: var(--soft); }
p.about, p.cut { color: var(--soft); font-size: 0.9rem; }
p.cut { border-left: 4px solid var(--mark); padding-left: 0.75rem; color: var(--ink); }
ul { list-style: none; padding: 0; margin: 0; }
li { padding: 0.4rem 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
li time { font-variant-numeric: tabular-nums; color: var(--soft); margin-right: 0.4rem; }
.said { font-style: italic; }
code { font: 0.85rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: color-mix(in srgb, var(--line) 45%, transparent); padding: 0.05rem 0.3rem; border-radius: 4px; overflow-wrap: anywhere; }
footer { margin-top: 2rem; color: var(--soft); font-size: 0.85rem; }
`;

/**
 * The journal of a span as Markdown and as a self-contained HTML page (inline CSS, no external resource), each with
 * the proof of the rolls it shows. Bounded: at most `maxItems` entries and rolls, and `maxFileBytes` a file; past
 * either it stops at an item and says where, with the `since:` that gives the rest.
 */
export function journalDocuments(input: JournalDocumentInput): JournalDocuments {
  const maxItems = input.maxItems ?? JOURNAL_MAX_ITEMS;
  const maxBytes = (input.maxFileBytes ?? JOURNAL_MAX_FILE_BYTES) - FRAME_BYTES;
  const who = (id: string | null) => (id === null ? 'Someone' : (input.names.get(id) ?? `member ${id}`));
  const all = itemsOf(input, who);
  const kept: Item[] = [];
  let markdownBytes = 0;
  let htmlBytes = 0;
  let cut: JournalDocuments['cut'] = null;
  for (const item of all) {
    if (kept.length >= maxItems) {
      cut = { at: item.at, since: item.at.toISOString(), reason: 'items' };
      break;
    }
    const proofBytes = item.proof ? utf8(journalProofJson({ format: 'tactalk-journal/1', guildId: '', sessions: [], rolls: [item.proof] })) : 0;
    const nextMarkdown = markdownBytes + utf8(markdownItem(item)) + proofBytes;
    const nextHtml = htmlBytes + utf8(htmlItem(item)) + proofBytes;
    if (nextMarkdown > maxBytes || nextHtml > maxBytes) {
      cut = { at: item.at, since: item.at.toISOString(), reason: 'bytes' };
      break;
    }
    kept.push(item);
    markdownBytes = nextMarkdown;
    htmlBytes = nextHtml;
  }
  const proof: JournalProof = {
    format: 'tactalk-journal/1',
    guildId: input.guildId,
    sessions: input.sessions.filter((session) => kept.some((item) => item.proof?.sessionId === session.id)),
    rolls: kept.flatMap((item) => (item.proof ? [item.proof] : [])),
  };
  const title = `Journal of ${oneLine(input.serverName)}`;
  const span = `${input.spanWords}: from ${input.from.toISOString().slice(0, 16).replace('T', ' ')} to ${input.to.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const about = `${span}. ${kept.length} ${kept.length === 1 ? 'entry' : 'entries'}; times in UTC.${input.includeSecret ? ' Secret and blind rolls are included: for Dispatchers only.' : ' Secret and blind rolls not yet revealed are left out.'}`;
  const cutWords = cut
    ? `This journal stops here, at ${cut.at.toISOString()}: ${cut.reason === 'items' ? `one export holds at most ${maxItems} entries` : `each file holds at most ${Math.floor((input.maxFileBytes ?? JOURNAL_MAX_FILE_BYTES) / 1_000_000)} MB`}. For the rest: /journal export since:${cut.since}${input.untilOption}`
    : null;
  const empty = kept.length === 0 ? 'Nothing happened in this span.' : null;
  const proofNote = `The proof embedded in this file lets anyone recompute every roll shown here from its seed${proof.sessions.some((session) => session.secret === null) ? ' once its session is closed and its secret published' : ''} (npm run verify:journal -- <file>).`;

  const markdown = [
    `# ${escapeMarkdown(title)}\n\n${about}\n\n`,
    empty ? `${empty}\n\n` : '',
    kept.map(markdownItem).join(''),
    cutWords ? `\n> ${cutWords}\n` : '',
    `\n---\n\n${proofNote}\n\n`,
    journalProofMarkdown(proof),
  ].join('');

  const listed: string[] = [];
  let open = false;
  for (const item of kept) {
    if (item.heading && open) {
      listed.push('</ul>\n');
      open = false;
    }
    if (!item.heading && !open) {
      listed.push('<ul>\n');
      open = true;
    }
    listed.push(htmlItem(item));
  }
  if (open) listed.push('</ul>\n');
  const html = [
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n',
    `<title>${escapeHtml(title)}</title>\n<style>${HTML_STYLE}</style>\n</head>\n<body>\n<main>\n`,
    `<h1>${escapeHtml(title)}</h1>\n<p class="about">${escapeHtml(about)}</p>\n`,
    empty ? `<p>${escapeHtml(empty)}</p>\n` : '',
    listed.join(''),
    cutWords ? `<p class="cut">${escapeHtml(cutWords)}</p>\n` : '',
    `<footer><p>${escapeHtml(proofNote)}</p></footer>\n</main>\n`,
    journalProofHtml(proof),
    '</body>\n</html>\n',
  ].join('');

  return { markdown, html, baseName: `journal-${input.to.toISOString().slice(0, 10)}`, shown: kept.length, cut };
}

// ——— What /journal answers in Discord ———

/** The scene marker posted in the channel: short, so it reads as a break in the story. */
export function sceneMarkerMessage(title: string): MessageBody {
  return { content: truncate(`🎬 **Scene: ${escapeMarkdown(oneLine(title))}**\n-# A journal can start here: \`/journal export since:\` and pick this scene.`, DISCORD_LIMITS.content), allowedMentions: NO_PINGS };
}

/** The choices of `since:` / `until:`: the scene markers, newest first, then this session and today. */
export function journalTimeChoices(scenes: ReadonlyArray<{ id: number; title: string; createdAt: Date }>, session: { id: number; kind: string; title: string } | null, typed: string): Array<{ name: string; value: string }> {
  const key = typed.trim().toLowerCase();
  const fixed = [
    ...(session ? [{ name: `This session (${session.kind === 'play' ? (session.title ? `“${oneLine(session.title)}”` : `session ${session.id}`) : 'today’s day session'})`, value: 'session' }] : []),
    { name: 'Today (since 00:00 UTC)', value: 'today' },
  ].filter((choice) => key === '' || choice.name.toLowerCase().includes(key) || choice.value.includes(key));
  const sceneChoices = scenes.map((scene) => ({
    name: truncate(`Scene: ${oneLine(scene.title)} (${scene.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)`, DISCORD_LIMITS.choiceName),
    value: `scene:${scene.id}`,
  }));
  return [...sceneChoices.slice(0, DISCORD_LIMITS.autocompleteChoices - fixed.length), ...fixed];
}

/** The words of `/journal export`'s answer, beside its two files. */
export function journalExportText(documents: Pick<JournalDocuments, 'shown' | 'cut' | 'baseName'>, spanWords: string, includeSecret: boolean): string {
  const what = `📜 The journal ${spanWords}: ${documents.shown} ${documents.shown === 1 ? 'entry' : 'entries'}, as Markdown and as a page to open in a browser.`;
  const secret = includeSecret ? ' Secret and blind rolls are included, so only you see this.' : '';
  const cut = documents.cut ? `\n⚠️ It stops at ${documents.cut.at.toISOString()} (${documents.cut.reason === 'items' ? 'the most entries one export holds' : 'the most a file holds'}): the file says how to get the rest.` : '';
  return `${what}${secret}${cut}`;
}
