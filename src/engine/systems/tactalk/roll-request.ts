/**
 * A challenge roll as a conversation (RULES 1.5, seed 000 "Challenge Rolls"): the player states what their Operator
 * tries and what happens if it works; the Dispatcher answers with a roll (the skill, the archetypes, the CL shown or
 * hidden, and what failing costs), or lets it happen with no roll. The player sees all of that, the hidden CL
 * excepted, and takes the roll or declines it. A Dispatcher may also call for the roll directly, stating the intent
 * and outcome themselves. A failed roll whose consequence is an outcome table lets the player make that Outcome Roll
 * once. Before rolling, the player may investigate a hidden CL of a single challenge once.
 * Pure: who may do what, and the new state.
 */
import { z } from 'zod';
import { UserError } from '../../../errors.js';
import { challengeResultSchema } from './challenge.js';
import { linkedRollPartSchema, type LinkedRollPart } from './linked-notation.js';

/**
 * `stated`: a player's intent, waiting for a Dispatcher. `open`: a roll called for, waiting for the player to take it
 * or decline. Then one of: `rolled`, `declined` (the player chose not to try), `cancelled` (by a Dispatcher),
 * `withdrawn` (the player took back their intent), `granted` (a Dispatcher let it happen with no roll).
 */
const rollRequestPhaseSchema = z.enum(['stated', 'open', 'rolled', 'declined', 'cancelled', 'withdrawn', 'granted']);
export type RollRequestPhase = z.infer<typeof rollRequestPhaseSchema>;

export const ROLL_REQUEST_LIMITS = {
  intentLength: 300,
  outcomeLength: 300,
  consequenceLength: 300,
} as const;

const consequenceRollSchema = z.object({ rollId: z.string(), table: z.string(), result: z.number(), rowText: z.string() });
export type ConsequenceRoll = z.infer<typeof consequenceRollSchema>;

/**
 * A request as the store keeps it. Requests of any age read as the current shape: those made before the
 * conversation have no intent, and what they lack is filled in (the defaults below).
 */
export const rollRequestStateSchema = z.object({
  kind: z.enum(['challenge', 'linked']),
  /** The Dispatcher who called for the roll; '' while a stated intent waits for one. */
  dispatcherId: z.string(),
  playerId: z.string(),
  /** The Operator the player named the intent for (their active sheet then); null when a Dispatcher called directly. */
  operatorName: z.string().nullable().default(null),
  /** What the Operator tries, and what happens if it works (null only on requests made before they were asked for). */
  intent: z.string().nullable().default(null),
  outcome: z.string().nullable().default(null),
  /** What failing costs, in words; null when the Dispatcher named nothing beyond not getting it done. */
  consequence: z.string().nullable().default(null),
  /** The outcome table a failure is rolled on, if any. */
  consequenceTable: z.string().nullable().default(null),
  /** One part for a challenge; two or more for a linked roll; none while only stated. */
  parts: z.array(linkedRollPartSchema).default([]),
  hidden: z.boolean().default(false),
  /**
   * A blind call (issue 25 §2): the CL is hidden too, and the player's roll is blind: its result is for the
   * Dispatchers until one reveals it, so nothing that follows from the verdict may show on the request.
   */
  blind: z.boolean().default(false),
  /**
   * The investigation table the Dispatcher named for a hidden challenge; null when none was named, and the table is
   * found by name each time (`investigationTableNames`). Requests posted before that stored the default they found.
   */
  investigationTable: z.string().nullable().default(null),
  phase: rollRequestPhaseSchema,
  investigation: z.object({ rollId: z.string(), rowText: z.string(), revealed: z.string().nullable() }).nullable().default(null),
  result: z
    .object({ rollId: z.string().nullable(), succeeded: z.number(), total: z.number(), operatorName: z.string(), results: z.array(challengeResultSchema) })
    .nullable()
    .default(null),
  /** The Outcome Roll a failure led to, once made. */
  consequenceRoll: consequenceRollSchema.nullable().default(null),
  /**
   * What a Dispatcher last typed in the *Call for a roll* form that was refused (`by`: who), so the form reopens with
   * it (*Fix the form*); cleared when a roll is called for.
   */
  formDraft: z.object({ by: z.string(), fields: z.record(z.string(), z.string()) }).nullable().default(null),
  /** The message that pinged the player when a Dispatcher answered their intent with a roll: settled with the request. */
  pingMessageId: z.string().nullable().default(null),
});
export type RollRequestState = z.infer<typeof rollRequestStateSchema>;

export class RollRequestRefusal extends UserError {
  /** `dispatcherOnly`: refused because the member is no Dispatcher; the command adds who is one on the server. */
  constructor(
    message: string,
    readonly dispatcherOnly = false,
  ) {
    super(message);
  }
}

/** A request of any age as the current shape: what it lacks takes the schema's defaults. */
export function normalizeRollRequest(raw: z.input<typeof rollRequestStateSchema>): RollRequestState {
  return rollRequestStateSchema.parse(raw);
}

/** The player's words (intent, outcome) or the Dispatcher's (consequence): trimmed, not empty, bounded. */
export function checkRequestText(what: 'intent' | 'outcome' | 'consequence', text: string): string {
  const trimmed = text.trim();
  const max = ROLL_REQUEST_LIMITS[`${what}Length`];
  const say = { intent: 'what the Operator tries to do', outcome: 'what happens if it works', consequence: 'what failing costs' }[what];
  if (trimmed.length === 0) throw new UserError(`The ${what} cannot be empty: say ${say}.`);
  if (trimmed.length > max) throw new UserError(`The ${what} may be at most ${max} characters; yours has ${trimmed.length}.`);
  return trimmed;
}

/** The roll a Dispatcher calls for: which skills and CLs, and what failing costs. */
export interface RollCall {
  kind: 'challenge' | 'linked';
  parts: LinkedRollPart[];
  hidden: boolean;
  /** A blind call; its CL is hidden as well. Absent: not blind. */
  blind?: boolean;
  investigationTable: string | null;
  consequence: string | null;
  consequenceTable: string | null;
}

function checkCall(call: RollCall): RollCall {
  if (call.blind && call.consequenceTable !== null) {
    throw new UserError('A blind roll cannot have a consequence table: its Outcome Roll would tell the player that the roll failed. Say what failing costs in `consequence`, or leave `blind` out.');
  }
  if (call.blind && call.investigationTable !== null) {
    throw new UserError('A blind roll allows no investigation: the player learns nothing of its difficulty. Leave `investigation` or `blind` out.');
  }
  if (call.blind && !call.hidden) return checkCall({ ...call, hidden: true });
  if (call.kind === 'linked' && call.investigationTable) {
    throw new UserError('A linked roll allows no investigation (RULES 1.5): leave `investigation` out.');
  }
  if (call.parts.length === 0 || (call.kind === 'linked' && call.parts.length < 2) || (call.kind === 'challenge' && call.parts.length !== 1)) {
    throw new UserError(call.kind === 'linked' ? 'A linked roll needs at least two challenge rolls.' : 'A challenge roll tests one skill.');
  }
  return { ...call, consequence: call.consequence === null ? null : checkRequestText('consequence', call.consequence) };
}

/** A Dispatcher calls for a roll directly, stating the intent and outcome it decides. */
export function newRollRequest(input: RollCall & { dispatcherId: string; playerId: string; intent: string; outcome: string }): RollRequestState {
  const call = checkCall(input);
  return normalizeRollRequest({
    ...call,
    dispatcherId: input.dispatcherId,
    playerId: input.playerId,
    intent: checkRequestText('intent', input.intent),
    outcome: checkRequestText('outcome', input.outcome),
    phase: 'open',
  });
}

/** A player states what their Operator tries and what happens if it works; a Dispatcher answers it. */
export function stateIntent(input: { playerId: string; operatorName: string; intent: string; outcome: string }): RollRequestState {
  return normalizeRollRequest({
    kind: 'challenge',
    dispatcherId: '',
    playerId: input.playerId,
    operatorName: input.operatorName,
    intent: checkRequestText('intent', input.intent),
    outcome: checkRequestText('outcome', input.outcome),
    phase: 'stated',
  });
}

const CLOSED: Partial<Record<RollRequestPhase, string>> = {
  rolled: 'This roll has already been made.',
  declined: 'The player declined this roll; nothing was rolled.',
  cancelled: 'This request was cancelled by the Dispatcher.',
  withdrawn: 'The player withdrew this intent.',
  granted: 'The Dispatcher let this happen with no roll.',
};

function requirePhase(state: RollRequestState, phase: 'stated' | 'open'): void {
  if (state.phase === phase) return;
  throw new RollRequestRefusal(
    CLOSED[state.phase] ?? (phase === 'open' ? 'No roll has been called for yet: a Dispatcher answers the intent first.' : 'A Dispatcher has already called for a roll here.'),
  );
}

export function requirePlayer(state: RollRequestState, userId: string): void {
  if (userId !== state.playerId) throw new RollRequestRefusal(`This is for <@${state.playerId}> only.`);
}

function requireDispatcher(isDispatcher: boolean, doing: string): void {
  if (!isDispatcher) throw new RollRequestRefusal(`Only a Dispatcher can ${doing}.`, true);
}

/** Whether this member may answer this intent with a roll now: a Dispatcher, while the intent waits. */
export function checkCallForRoll(state: RollRequestState, actor: { isDispatcher: boolean }): void {
  requireDispatcher(actor.isDispatcher, 'call for a roll');
  requirePhase(state, 'stated');
}

/** A Dispatcher answers a stated intent with a roll: the player then takes it or declines. */
export function callForRoll(state: RollRequestState, actor: { userId: string; isDispatcher: boolean }, call: RollCall): RollRequestState {
  checkCallForRoll(state, actor);
  return { ...state, ...checkCall(call), dispatcherId: actor.userId, phase: 'open', formDraft: null };
}

/** The form a Dispatcher sent was refused: what they typed is kept, for the form to reopen with it. */
export function keepFormDraft(state: RollRequestState, actor: { userId: string; isDispatcher: boolean }, fields: Record<string, string>): RollRequestState {
  checkCallForRoll(state, actor);
  return { ...state, formDraft: { by: actor.userId, fields } };
}

/** What this Dispatcher last typed in a refused form for this intent, if anything (another's draft stays theirs). */
export function formDraftOf(state: RollRequestState, userId: string): Record<string, string> | null {
  return state.formDraft?.by === userId ? state.formDraft.fields : null;
}

/** A Dispatcher decides no roll is needed: the intent simply happens. */
export function grantWithoutRoll(state: RollRequestState, actor: { userId: string; isDispatcher: boolean }): RollRequestState {
  requireDispatcher(actor.isDispatcher, 'decide that no roll is needed');
  requirePhase(state, 'stated');
  return { ...state, dispatcherId: actor.userId, phase: 'granted' };
}

/** The player takes back an intent no Dispatcher has answered yet. */
export function withdrawIntent(state: RollRequestState, userId: string): RollRequestState {
  requirePlayer(state, userId);
  requirePhase(state, 'stated');
  return { ...state, phase: 'withdrawn' };
}

/** The table that serves every skill's investigation unless the skill has its own (`Investigation: <skill>`). */
export const INVESTIGATION_TABLE = 'Investigation';
/** The shipped example (examples/investigation.example.json), which serves as it is imported until the server has its own. */
export const EXAMPLE_INVESTIGATION_TABLE = 'Investigation (example)';

/**
 * The names of the tables a hidden challenge may be investigated on, best first; the first the server has serves.
 * The one the Dispatcher named; the skill's own, "Investigation: <skill>" (seed 000: "the Skill's Investigation
 * Outcome Table"); one for every skill, "Investigation"; and the shipped example. Read when the request is drawn and
 * when Investigate is pressed, so a table added after the request was posted serves it.
 */
export function investigationTableNames(state: Pick<RollRequestState, 'investigationTable' | 'parts'>): string[] {
  const skill = state.parts[0]?.skill;
  return [...(state.investigationTable ? [state.investigationTable] : []), ...(skill ? [`Investigation: ${skill}`] : []), INVESTIGATION_TABLE, EXAMPLE_INVESTIGATION_TABLE];
}

/** Whether the player may still investigate: a hidden single challenge, not investigated, not rolled. */
export function mayInvestigate(state: RollRequestState): boolean {
  return state.phase === 'open' && state.kind === 'challenge' && state.hidden && !state.blind && state.investigation === null;
}

export function checkInvestigation(state: RollRequestState, userId: string): void {
  requirePlayer(state, userId);
  requirePhase(state, 'open');
  if (state.kind === 'linked') throw new RollRequestRefusal('A linked roll allows no investigation.');
  if (!state.hidden) throw new RollRequestRefusal('The Challenge Level is not hidden: there is nothing to investigate.');
  if (state.blind) throw new RollRequestRefusal('This roll is blind: the player learns nothing of its difficulty, so there is nothing to investigate.');
  if (state.investigation) throw new RollRequestRefusal('You have already investigated this challenge.');
}

export function recordInvestigation(state: RollRequestState, userId: string, investigation: NonNullable<RollRequestState['investigation']>): RollRequestState {
  checkInvestigation(state, userId);
  return { ...state, investigation };
}

export function checkRoll(state: RollRequestState, userId: string): void {
  requirePlayer(state, userId);
  requirePhase(state, 'open');
}

export function recordRoll(state: RollRequestState, userId: string, result: NonNullable<RollRequestState['result']>): RollRequestState {
  checkRoll(state, userId);
  return { ...state, phase: 'rolled', result };
}

/** The player, knowing what failing costs, chooses not to try: nothing is rolled. */
export function declineRoll(state: RollRequestState, userId: string): RollRequestState {
  checkRoll(state, userId);
  return { ...state, phase: 'declined' };
}

export function cancelRollRequest(state: RollRequestState, isDispatcher: boolean): RollRequestState {
  requireDispatcher(isDispatcher, 'cancel a roll request');
  if (state.phase !== 'stated') requirePhase(state, 'open');
  return { ...state, phase: 'cancelled' };
}

/** Whether the roll failed: a single challenge that failed, or a linked roll with any part failed. */
export function rollFailed(state: RollRequestState): boolean {
  return state.phase === 'rolled' && state.result !== null && state.result.succeeded < state.result.total;
}

/** Whether the failure's Outcome Roll is still to be made. */
export function mayRollConsequence(state: RollRequestState): boolean {
  return rollFailed(state) && state.consequenceTable !== null && state.consequenceRoll === null;
}

export function checkConsequenceRoll(state: RollRequestState, userId: string): void {
  requirePlayer(state, userId);
  if (state.consequenceRoll) throw new RollRequestRefusal(`The Outcome Roll on ${state.consequenceRoll.table} was already made: roll ${state.consequenceRoll.rollId}.`);
  if (state.consequenceTable === null) throw new RollRequestRefusal('This roll has no consequence table to roll on.');
  if (state.phase !== 'rolled') throw new RollRequestRefusal('The challenge roll has not been made.');
  if (!rollFailed(state)) throw new RollRequestRefusal('The roll succeeded: its consequence does not apply.');
}

export function recordConsequenceRoll(state: RollRequestState, userId: string, consequenceRoll: ConsequenceRoll): RollRequestState {
  checkConsequenceRoll(state, userId);
  return { ...state, consequenceRoll };
}

/** Whether the request is settled: nothing is left for anyone to choose on it (an Outcome Roll may still be due). */
export function requestSettled(state: RollRequestState): boolean {
  return state.phase !== 'stated' && state.phase !== 'open';
}

/** The player was pinged by `messageId` that the roll waits for them: kept, so the ping says so once it is settled. */
export function notePing(state: RollRequestState, messageId: string): RollRequestState {
  return { ...state, pingMessageId: messageId };
}
