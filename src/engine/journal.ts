/**
 * The session journal's entries: what happened at the table besides the dice (the rolls themselves are the roll log),
 * each kind with the shape of its stored details. Written where things happen (a stated intent, a Dispatcher's call,
 * a decline, a contest's terms and its end, a scene marker, a note added by hand), read back by `/journal export`.
 */
import { z } from 'zod';
import { sideName, type ContestState } from './systems/tactalk/contest.js';
import type { RollRequestState } from './systems/tactalk/roll-request.js';

/** A note added by hand, as long as a Nitro member's message, so "Add to journal" keeps a whole message. */
export const JOURNAL_NOTE_MAX_LENGTH = 4000;
/** A scene's title: a heading, not a paragraph. */
export const JOURNAL_SCENE_TITLE_MAX_LENGTH = 100;

const text = z.string();
const id = z.string();

export const journalNoteSchema = z.looseObject({ text, messageUrl: z.string().optional() });
export const journalSceneSchema = z.looseObject({ title: text, messageUrl: z.string().optional() });
/** A player's stated intent: what their Operator tries and what happens if it works, before any roll is called. */
export const journalIntentSchema = z.looseObject({ requestId: z.number(), playerId: id, operatorName: text.nullable(), intent: text, outcome: text.nullable() });
/** One skill a call tests; its CL null when hidden from the player. */
const calledPart = z.looseObject({ skill: text, archetypes: z.array(text), modifier: z.number(), challengeLevel: z.number().nullable() });
/**
 * A Dispatcher's call for a roll: what is rolled, what rides on it (the intent and the outcome hoped for: the stakes)
 * and what failing costs (the consequence, an outcome table).
 */
export const journalCallSchema = z.looseObject({
  requestId: z.number(),
  playerId: id,
  dispatcherId: id,
  kind: z.enum(['challenge', 'linked']),
  parts: z.array(calledPart),
  hidden: z.boolean(),
  intent: text.nullable(),
  outcome: text.nullable(),
  consequence: text.nullable(),
  consequenceTable: text.nullable(),
});
/** A call the player turned down rather than roll, knowing what failing costs. */
export const journalDeclineSchema = z.looseObject({ requestId: z.number(), playerId: id });
/** A request settled with no roll: let happen by a Dispatcher, cancelled by one, or an intent withdrawn by its player. */
export const journalSettledSchema = z.looseObject({ requestId: z.number(), how: z.enum(['granted', 'cancelled', 'withdrawn']) });
/** A roll that answers a call: the player's own roll, or the consequence roll on the table the call named. */
export const journalAnswerSchema = z.looseObject({ requestId: z.number(), answers: z.enum(['call', 'consequence']), table: text.nullable() });
/** A contest's terms as both sides agreed to them: the intent, and what each side's win does to the other. */
export const journalContestTermsSchema = z.looseObject({
  contestId: z.number(),
  intent: text,
  sides: z.array(z.looseObject({ userId: id, name: text, stakes: text })),
});
/**
 * How a contest ended: `won` (winner set), `nobody` (both failed against a defender), or `ended` / `expired` without a
 * roll deciding it (`reason`: the contest's own end kind, e.g. declined, tie-accepted).
 */
export const journalContestEndSchema = z.looseObject({
  contestId: z.number(),
  result: z.enum(['won', 'nobody', 'ended', 'expired']),
  winnerId: id.nullable(),
  winnerName: text.nullable(),
  loserName: text.nullable(),
  reason: text.nullable(),
  rounds: z.number(),
});

export const JOURNAL_DETAILS = {
  note: journalNoteSchema,
  scene: journalSceneSchema,
  intent: journalIntentSchema,
  call: journalCallSchema,
  decline: journalDeclineSchema,
  settled: journalSettledSchema,
  answer: journalAnswerSchema,
  'contest-terms': journalContestTermsSchema,
  'contest-end': journalContestEndSchema,
} as const;

export type JournalKind = keyof typeof JOURNAL_DETAILS;
export type JournalDetails<K extends JournalKind> = z.output<(typeof JOURNAL_DETAILS)[K]>;

/** One entry as read back: its kind with its details, so a view switches on `kind` and gets the right shape. */
export type JournalEntry = {
  [K in JournalKind]: {
    id: number;
    kind: K;
    guildId: string;
    channelId: string;
    userId: string | null;
    details: JournalDetails<K>;
    rollId: string | null;
    secret: boolean;
    createdAt: Date;
  };
}[JournalKind];

export function isJournalKind(kind: string): kind is JournalKind {
  return Object.hasOwn(JOURNAL_DETAILS, kind);
}

/** An entry to write, as a store change decides it: the store adds where (server, channel) and when. */
export type JournalWrite = {
  [K in JournalKind]: {
    kind: K;
    userId: string | null;
    details: JournalDetails<K>;
    rollId?: string | null;
    secret?: boolean;
    /** Told after the roll the same change made (a contest's winner after its round), not before it. */
    afterRoll?: boolean;
  };
}[JournalKind];

/**
 * What a roll request's change adds to the journal: from `before` (null: the request is new) to `after`. A player's
 * intent; a Dispatcher's call (answering the intent, or made directly with its intent); a decline; a request settled
 * with no roll; the roll that answered the call and the consequence roll a failure led to.
 */
export function requestJournal(requestId: number, before: RollRequestState | null, after: RollRequestState): JournalWrite[] {
  const writes: JournalWrite[] = [];
  const was = before?.phase ?? null;
  if (was === null && after.phase === 'stated') {
    writes.push({ kind: 'intent', userId: after.playerId, details: { requestId, playerId: after.playerId, operatorName: after.operatorName, intent: after.intent ?? '', outcome: after.outcome } });
  }
  if ((was === null || was === 'stated') && after.phase === 'open') {
    writes.push({
      kind: 'call',
      userId: after.dispatcherId || null,
      details: {
        requestId,
        playerId: after.playerId,
        dispatcherId: after.dispatcherId,
        kind: after.kind,
        parts: after.parts.map((part) => ({ skill: part.skill, archetypes: part.archetypes, modifier: part.situationalModifier, challengeLevel: after.hidden ? null : part.challengeLevel })),
        hidden: after.hidden,
        intent: after.intent,
        outcome: after.outcome,
        consequence: after.consequence,
        consequenceTable: after.consequenceTable,
      },
    });
  }
  if (was !== 'declined' && after.phase === 'declined') writes.push({ kind: 'decline', userId: after.playerId, details: { requestId, playerId: after.playerId } });
  if (was !== after.phase && (after.phase === 'granted' || after.phase === 'cancelled' || after.phase === 'withdrawn')) {
    writes.push({ kind: 'settled', userId: after.phase === 'withdrawn' ? after.playerId : after.dispatcherId || null, details: { requestId, how: after.phase } });
  }
  // An answer is as secret as its roll, no more: the export leaves it out exactly while it leaves its roll out (a blind
  // call's roll until it is revealed), so it is not marked secret itself.
  if (was !== 'rolled' && after.phase === 'rolled' && after.result?.rollId) {
    writes.push({ kind: 'answer', userId: after.playerId, rollId: after.result.rollId, details: { requestId, answers: 'call', table: null } });
  }
  if (!before?.consequenceRoll && after.consequenceRoll) {
    writes.push({ kind: 'answer', userId: after.playerId, rollId: after.consequenceRoll.rollId, details: { requestId, answers: 'consequence', table: after.consequenceRoll.table } });
  }
  return writes;
}

const AGREED_PHASES: readonly ContestState['phase'][] = ['roles', 'skills', 'tied', 'resolved'];
const OVER_PHASES: readonly ContestState['phase'][] = ['resolved', 'ended', 'expired'];

/**
 * What a contest's change adds to the journal: its terms once the challenger agrees to the challenged player's (both
 * sides' stakes), and how it ended: who won, or why nobody did.
 */
export function contestJournal(contestId: number, before: ContestState, after: ContestState): JournalWrite[] {
  const writes: JournalWrite[] = [];
  if (before.phase === 'countered' && AGREED_PHASES.includes(after.phase)) {
    writes.push({
      kind: 'contest-terms',
      userId: after.challenger.userId,
      details: {
        contestId,
        intent: after.intent,
        sides: (['challenger', 'opponent'] as const).map((side) => ({ userId: after[side].userId, name: sideName(after, side), stakes: after[side].stakes })),
      },
    });
  }
  if (before.phase !== 'draft' && !OVER_PHASES.includes(before.phase) && OVER_PHASES.includes(after.phase)) {
    const last = after.rounds.at(-1);
    const won = after.phase === 'resolved' && (last?.winner === 'challenger' || last?.winner === 'opponent') ? last.winner : null;
    const lost = won === 'challenger' ? 'opponent' : won === 'opponent' ? 'challenger' : null;
    const reason = typeof after.endReason === 'string' ? after.endReason : (after.endReason?.kind ?? null);
    writes.push({
      kind: 'contest-end',
      afterRoll: true,
      userId: won ? after[won].userId : null,
      details: {
        contestId,
        result: won ? 'won' : after.phase === 'resolved' ? 'nobody' : after.phase === 'expired' ? 'expired' : 'ended',
        winnerId: won ? after[won].userId : null,
        winnerName: won ? sideName(after, won) : null,
        loserName: lost ? sideName(after, lost) : null,
        reason,
        rounds: after.rounds.length,
      },
    });
  }
  return writes;
}

/**
 * Where a journal's span starts or ends, as typed or picked: a scene marker (picked: `scene:<id>`), the server's
 * current or last play session, today (UTC), a duration back from now (`2h`, `90m`, `3d`, `1w`), or a moment (an ISO
 * date, `2026-11-27`, or date and time, UTC unless it names its zone). Anything else may still be a scene's title,
 * which the command looks up; null here.
 */
export type JournalTime =
  | { kind: 'scene'; id: number }
  | { kind: 'session' }
  | { kind: 'today' }
  | { kind: 'ago'; ms: number; typed: string }
  | { kind: 'at'; date: Date };

/** How far back a duration may reach: ten years. */
const MOST_AGO_MS = 3650 * 24 * 3600 * 1000;
const UNIT_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(\d{1,6})\s*(m|min|h|d|w)$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/i;

export function parseJournalTime(typed: string): JournalTime | null {
  const text = typed.trim().toLowerCase();
  const scene = /^scene:(\d{1,10})$/.exec(text);
  if (scene) return { kind: 'scene', id: Number(scene[1]) };
  if (text === 'session' || text === 'this session') return { kind: 'session' };
  if (text === 'today') return { kind: 'today' };
  const duration = DURATION.exec(text);
  if (duration) {
    const ms = Number(duration[1]) * UNIT_MS[duration[2]!]!;
    return ms > 0 && ms <= MOST_AGO_MS ? { kind: 'ago', ms, typed: `${duration[1]}${duration[2]}` } : null;
  }
  if (ISO_DAY.test(text) || ISO_MOMENT.test(text)) {
    const iso = text.toUpperCase().replace(' ', 'T');
    const zoned = ISO_DAY.test(text) ? `${iso}T00:00:00Z` : /Z|[+-]\d{2}:\d{2}$/.test(iso) ? iso : `${iso}Z`;
    const date = new Date(zoned);
    return Number.isNaN(date.getTime()) ? null : { kind: 'at', date };
  }
  return null;
}

/** The start of `now`'s UTC day. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
