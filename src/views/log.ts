/**
 * /log: a page of the server's roll log, newest first, with Previous / Next buttons. The buttons' custom_id
 * carries everything the next page needs (who asked, the filter, the cap, the page and its cursor): nothing is
 * kept in memory. Secret rolls show their result only to Dispatchers.
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, type ApplicationCommandOptionChoiceData } from 'discord.js';
import { awaitsReveal, isHiddenFrom, isRevealed } from '../engine/blind.js';
import type { DeclinedRequest } from '../store/roll-requests.js';
import type { RollCursor, StoredRoll } from '../store/rolls.js';
import { blindWhat } from './blind.js';
import { componentIds, oneOf, wholeNumber } from './component-id.js';
import { escapeMarkdown, storedAt, storedText } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody } from './messages.js';

export const LOG_PAGE_SIZE = 10;
/** The most rolls one /log pages through (`count`). */
export const LOG_COUNT_MAX = 1000;
/** One line of the log at most: ten of them stay well inside an embed's description. */
const LINE_MAX = 380;
/** Declined requests listed on one page at most, and the length of each line: they share the description. */
export const LOG_DECLINES_MAX = 5;
const DECLINE_LINE_MAX = 200;

/** What a page of /log shows: whose log, which rolls, and where this page is. */
export interface LogQuery {
  /** Who ran /log: only they may page it. */
  viewerId: string;
  /** Only this user's rolls; null for everyone's. */
  userId: string | null;
  /** Page through at most this many of the newest rolls; null for the whole log. */
  count: number | null;
  /** 1 for the newest page. */
  page: number;
}

/** A press of Previous (toward newer rolls) or Next (toward older ones), with the page it leads to. */
export interface LogPress {
  query: LogQuery;
  direction: 'newer' | 'older';
  cursor: RollCursor;
}

/** `log:<direction>:<viewer>:<user or ->:<count or ->:<page>:<cursor time>:<cursor roll id>`. */
export const logIds = componentIds<LogPress>('log', {
  write: ({ query, direction, cursor }) => [direction, query.viewerId, query.userId ?? '-', query.count ?? '-', query.page, cursor.createdAt.getTime(), cursor.id],
  read: (parts) => {
    if (parts.length !== 7) return null;
    const [directionText, viewerId, userId, countText, pageText, ms, id] = parts as [string, string, string, string, string, string, string];
    const direction = oneOf(directionText, ['newer', 'older']);
    const count = countText === '-' ? null : wholeNumber(countText);
    const page = wholeNumber(pageText);
    const createdAt = new Date(wholeNumber(ms) ?? NaN);
    if (!direction || !/^\d+$/.test(viewerId) || (userId !== '-' && !/^\d+$/.test(userId)) || !id) return null;
    if ((countText !== '-' && count === null) || page === null || page < 1 || Number.isNaN(createdAt.getTime())) return null;
    return { query: { viewerId, userId: userId === '-' ? null : userId, count, page }, direction, cursor: { createdAt, id } };
  },
});

/** How many rolls the query's page holds at most (the last page of a capped log may hold fewer). */
export function logPageLimit(query: LogQuery): number {
  const left = query.count === null ? LOG_PAGE_SIZE : query.count - (query.page - 1) * LOG_PAGE_SIZE;
  return Math.max(0, Math.min(LOG_PAGE_SIZE, left));
}

// ---- one roll as a line ------------------------------------------------------------------------------------


const skillOf = (value: unknown): string => `${storedText(storedAt(value, 'skill', 'name'))}${typeof storedAt(value, 'skill', 'level') === 'number' ? ` ${String(storedAt(value, 'skill', 'level'))}` : ''}`;
/** A contest side: its skill, or the skills of the linked roll the Dispatcher made it ("Handgun Handling 40 + Driving 30"). */
const contestSideOf = (value: unknown): string => {
  const linked = storedAt(value, 'linked');
  return Array.isArray(linked) ? linked.map(skillOf).join(' + ') : skillOf(value);
};

/** What a roll was and what came of it, read from what the roll log stored for its kind. */
export function describeRoll(roll: StoredRoll): { what: string; outcome: string } {
  switch (roll.kind) {
    case 'challenge':
      return {
        what: `${skillOf(roll.inputs)} vs CL ${roll.challengeLevel ?? String(storedAt(roll.inputs, 'challengeLevel'))}`,
        outcome: `**${roll.total ?? '?'}**, ${roll.success ? 'success' : 'failure'}`,
      };
    case 'linked': {
      const parts = Array.isArray(storedAt(roll.result, 'results')) ? (storedAt(roll.result, 'results') as unknown[]) : [];
      return {
        what: `linked: ${parts.map((part) => `${storedText(storedAt(part, 'input', 'skill', 'name'))} vs ${String(storedAt(part, 'input', 'challengeLevel'))}`).join('; ')}`,
        outcome: `**${String(storedAt(roll.result, 'succeeded'))} of ${parts.length}** succeeded`,
      };
    }
    case 'contest': {
      const winner = storedAt(roll.result, 'winner');
      // Rounds rolled since issue 23 keep the Operators' names; older ones say which side won.
      const named = (side: 'challenger' | 'opponent') => {
        const name = storedAt(roll.inputs, 'names', side);
        return typeof name === 'string' ? storedText(name) : `the ${side}`;
      };
      return {
        what: `contest #${String(storedAt(roll.inputs, 'contestId'))}, round ${String(storedAt(roll.inputs, 'round'))}: ${contestSideOf(storedAt(roll.inputs, 'challenger'))} vs ${contestSideOf(storedAt(roll.inputs, 'opponent'))}`,
        outcome:
          winner === 'tie'
            ? '**tie**'
            : winner === 'nobody'
              ? '**both failed: nothing changes**'
              : `**${named(winner === 'challenger' ? 'challenger' : 'opponent')} wins**`,
      };
    }
    case 'outcome': {
      const after = storedAt(roll.inputs, 'after');
      return {
        // The table is stored with the inputs (as it was when rolled); the result holds the roll and the row.
        what: `outcome on ${storedText(storedAt(roll.inputs, 'table', 'name'))}${typeof after === 'string' ? `, after challenge roll \`${storedText(after)}\`` : ''}`,
        outcome: `**${String(storedAt(roll.result, 'result'))}**: ${storedText(storedAt(roll.result, 'row', 'text'))}`,
      };
    }
    case 'dice': {
      const label = storedAt(roll.inputs, 'label');
      const rolls = Array.isArray(storedAt(roll.result, 'rolls')) ? (storedAt(roll.result, 'rolls') as unknown[]) : [];
      return {
        what: `dice ${storedText(storedAt(roll.inputs, 'expression'))}${typeof label === 'string' ? ` (${storedText(label)})` : ''}`,
        outcome: rolls.map((one) => `**${String(storedAt(one, 'total'))}**`).join(', ') || '—',
      };
    }
    default:
      return { what: escapeMarkdown(roll.kind), outcome: roll.total === null ? '—' : `**${roll.total}**` };
  }
}

/** A roll against a hidden CL, as a player may see it: the skills, the total they rolled and success, never the CL. */
function describeHiddenRoll(roll: StoredRoll): { what: string; outcome: string } {
  const parts = Array.isArray(roll.inputs) ? (roll.inputs as unknown[]) : [roll.inputs];
  const results = roll.kind === 'linked' ? ((storedAt(roll.result, 'results') as unknown[] | undefined) ?? []) : [roll.result];
  const succeeded = results.filter((result) => storedAt(result, 'success') === true).length;
  const total = storedAt(roll.result, 'result');
  return {
    what: `${parts.map((part) => storedText(storedAt(part, 'skill', 'name'))).join('; ')} vs a hidden CL`,
    outcome: parts.length > 1 ? `**${succeeded} of ${parts.length}** succeeded` : `${typeof total === 'number' ? `**${total}**, ` : ''}${succeeded ? '**success**' : '**failure**'}`,
  };
}

/** A declined roll request: who declined what, marked as no roll (it has no id to replay). A hidden CL stays hidden. */
export function declineLine(decline: DeclinedRequest): string {
  const { state } = decline;
  const who = `<@${state.playerId}>${state.operatorName ? ` as **${escapeMarkdown(state.operatorName)}**` : ''}`;
  const what = state.parts.map((part) => `${storedText(part.skill)} vs ${state.hidden ? 'a hidden CL' : `CL ${part.challengeLevel}`}`).join('; ');
  const intent = state.intent ? ` to ${storedText(state.intent)}` : '';
  return truncate(`🙅 *not a roll* <t:${Math.floor(decline.declinedAt.getTime() / 1000)}:R> ${who} declined request #${decline.id}: ${what}${intent}`, DECLINE_LINE_MAX);
}

/**
 * What a member may read of a roll: everything for a Dispatcher; for anyone else, a roll against a hidden CL without
 * its CL, and nothing of a secret roll (null).
 */
function describeFor(roll: StoredRoll, canSeeSecrets: boolean): { what: string; outcome: string } | null {
  // A blind roll not yet revealed: what was rolled, as its message said, and nothing of what came of it.
  if (isHiddenFrom(roll, canSeeSecrets)) return { what: `blind ${blindWhat(roll)}`, outcome: 'blind roll, result hidden' };
  if (canSeeSecrets) return describeRoll(roll);
  if (roll.secret) return null;
  return roll.hiddenChallengeLevel && !isRevealed(roll) ? describeHiddenRoll(roll) : describeRoll(roll);
}

/** A blind roll's mark: 🙈, and to a Dispatcher whether it still waits for a reveal. */
function blindMark(roll: StoredRoll): string {
  if (!roll.blind) return '';
  return awaitsReveal(roll) ? '🙈 (not revealed) ' : '🙈 ';
}

/** One line of the log; a secret roll's line names neither what nor who for someone who is not a Dispatcher. */
export function logLine(roll: StoredRoll, canSeeSecrets: boolean): string {
  const head = `\`${roll.id}\` <t:${Math.floor(roll.createdAt.getTime() / 1000)}:R>`;
  const described = describeFor(roll, canSeeSecrets);
  if (!described) return `${head} 🤫 secret roll by a Dispatcher`;
  const { what, outcome } = described;
  const who = `<@${roll.userId}>${roll.npc ? ` as **${escapeMarkdown(roll.npc)}**` : ''}`;
  return truncate(`${head} ${roll.secret ? '🤫 ' : ''}${blindMark(roll)}${who} · ${what} → ${outcome}`, LINE_MAX);
}

// ---- the page ------------------------------------------------------------------------------------------------

export interface LogPageView {
  query: LogQuery;
  rolls: StoredRoll[];
  /** Whether Previous / Next lead anywhere. */
  newer: boolean;
  older: boolean;
  canSeeSecrets: boolean;
  /** Declined requests of this page's span, newest first (one more than LOG_DECLINES_MAX says there are more). */
  declines?: DeclinedRequest[];
}

/** The page's rolls and declines in one list, newest first. */
function pageLines(view: LogPageView): string[] {
  const declines = (view.declines ?? []).slice(0, LOG_DECLINES_MAX);
  const entries = [
    ...view.rolls.map((roll) => ({ at: roll.createdAt.getTime(), line: logLine(roll, view.canSeeSecrets) })),
    ...declines.map((decline) => ({ at: decline.declinedAt.getTime(), line: declineLine(decline) })),
  ].sort((a, b) => b.at - a.at);
  const lines = entries.map((entry) => entry.line);
  if ((view.declines ?? []).length > LOG_DECLINES_MAX) lines.push(`*… more declined requests in this span; \`/log user:\` narrows it down.*`);
  return lines;
}

export function logMessage(view: LogPageView): MessageBody {
  const { query, rolls } = view;
  const first = rolls[0];
  const last = rolls.at(-1);
  const whose = query.userId ? `Rolls by <@${query.userId}>` : 'Rolls in this server';
  const lines = pageLines(view);
  const embed = new EmbedBuilder()
    .setColor(0x34495e)
    .setTitle(`🎲 Roll log · page ${query.page}`)
    .setDescription(
      truncate(
        [`${whose}, newest first${query.count === null ? '' : ` (the latest ${query.count})`}:`, ...(lines.length ? lines : ['*No rolls here yet.*'])].join('\n'),
        DISCORD_LIMITS.embedDescription,
      ),
    )
    .setFooter({ text: `Any roll can be replayed by its id: /roll replay id:<id>${view.declines?.length ? '. 🙅 marks a roll the player declined: nothing was rolled.' : ''}` });
  const previousPage = { ...query, page: Math.max(1, query.page - 1) };
  const nextPage = { ...query, page: query.page + 1 };
  const hasNext = view.older && logPageLimit(nextPage) > 0;
  const epoch = { createdAt: new Date(0), id: '-' };
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(logIds.encode({ query: previousPage, direction: 'newer', cursor: first ?? epoch }))
      .setLabel('◀ Previous')
      .setStyle(ButtonStyle.Secondary)
      .setDisabled(!view.newer || !first),
    new ButtonBuilder()
      .setCustomId(logIds.encode({ query: nextPage, direction: 'older', cursor: last ?? epoch }))
      .setLabel('Next ▶')
      .setStyle(ButtonStyle.Secondary)
      .setDisabled(!hasNext || !last),
  );
  return { embeds: [embed.toJSON()], components: [row.toJSON()], allowedMentions: NO_PINGS };
}

// ---- /roll replay's choices ----------------------------------------------------------------------------------

/** The newest rolls /roll replay's autocomplete looks through for what was typed. */
export const REPLAY_CHOICES_SCANNED = 100;

/** A line of the log as plain text, for an autocomplete choice (Discord shows its name as typed): escapes and bold undone. */
function plainText(markdown: string): string {
  return markdown.replace(/\\([\s\S])|\*\*|`/g, (_, escaped?: string) => escaped ?? '');
}

/** How long ago, in words a choice can show (it cannot carry a Discord timestamp): "just now", "2 min ago", "3 h ago", "5 days ago". */
export function agoText(then: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? 'yesterday' : `${days} days ago`;
}

/**
 * /roll replay's choices: the rolls (newest first) the member may replay, as /log shows them to that member (a
 * player is offered no secret roll, since replaying one is refused, and sees a hidden CL's roll without its CL), each
 * "<id> · 2 min ago · Climbing 60 vs CL 90 → 112, success". What was typed keeps those whose words or id hold it, the
 * ones whose id starts with it first; at most 25.
 */
export function replayChoices(
  rolls: readonly StoredRoll[],
  options: { canSeeSecrets: boolean; typed: string; now: Date },
): Array<ApplicationCommandOptionChoiceData<string>> {
  const typed = options.typed.trim().toLowerCase();
  const offered = rolls.flatMap((roll) => {
    const described = describeFor(roll, options.canSeeSecrets);
    if (!described) return [];
    const who = roll.npc ? `${escapeMarkdown(roll.npc)}: ` : '';
    const words = plainText(`${roll.secret ? '🤫 ' : ''}${blindMark(roll)}${who}${described.what} → ${described.outcome}`);
    const full = `${roll.id} · ${agoText(roll.createdAt, options.now)} · ${words}`;
    return typed === '' || full.toLowerCase().includes(typed) ? [{ roll, name: truncate(full, DISCORD_LIMITS.choiceName) }] : [];
  });
  const idFirst = (roll: StoredRoll) => Number(!roll.id.startsWith(typed));
  return offered
    .sort((a, b) => idFirst(a.roll) - idFirst(b.roll))
    .slice(0, DISCORD_LIMITS.autocompleteChoices)
    .map(({ roll, name }) => ({ name, value: roll.id }));
}
