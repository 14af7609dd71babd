/**
 * The session journal's entries: what happened at the table besides the dice (the rolls themselves are the roll log),
 * each kind with the shape of its stored details. Written where things happen (a stated intent, a Dispatcher's call,
 * a decline, a contest's terms and its end, a scene marker, a note added by hand), read back by `/journal export`.
 */
import { z } from 'zod';

/** A note added by hand, as long as a Nitro member's message, so "Add to journal" keeps a whole message. */
export const JOURNAL_NOTE_MAX_LENGTH = 4000;
/** A scene's title: a heading, not a paragraph. */
export const JOURNAL_SCENE_TITLE_MAX_LENGTH = 100;

const text = z.string();
const id = z.string();

export const journalNoteSchema = z.looseObject({ text, messageUrl: z.string().optional() });
export const journalSceneSchema = z.looseObject({ title: text, messageUrl: z.string().optional() });
/** A player's stated intent: what they mean to do, before any roll is called. */
export const journalIntentSchema = z.looseObject({ requestId: z.number(), playerId: id, intent: text });
/** A Dispatcher's call for a roll: what is rolled, and what rides on it. */
export const journalCallSchema = z.looseObject({
  requestId: z.number(),
  playerId: id,
  dispatcherId: id,
  roll: text,
  intent: text.optional(),
  stakes: text.optional(),
  consequences: text.optional(),
});
/** A call the player turned down rather than roll. */
export const journalDeclineSchema = z.looseObject({ requestId: z.number(), playerId: id, reason: text.optional() });
/** A roll that answers a call: the player's own, or a consequence the call named. */
export const journalAnswerSchema = z.looseObject({ requestId: z.number(), answers: z.enum(['call', 'consequence']), label: text.optional() });
/** A contest's terms as both sides agreed to them. */
export const journalContestTermsSchema = z.looseObject({
  contestId: z.number(),
  sides: z.array(z.looseObject({ userId: id, name: text.optional(), stakes: text.optional() })),
});
/** How a contest ended: its winner (null when nobody won, as a contest called off). */
export const journalContestEndSchema = z.looseObject({
  contestId: z.number(),
  winnerId: id.nullable(),
  winnerName: text.optional(),
  how: text.optional(),
});

export const JOURNAL_DETAILS = {
  note: journalNoteSchema,
  scene: journalSceneSchema,
  intent: journalIntentSchema,
  call: journalCallSchema,
  decline: journalDeclineSchema,
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
