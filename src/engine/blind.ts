/**
 * Blind rolls (issue 25 §2): a roll whose dice, verdict, CL and odds only Dispatchers see until one reveals it. The
 * one rule every reader of the roll log applies (/log, /roll replay, the journal, /stats, any export), so a blind
 * result cannot leak through one of them while the others keep it.
 */

/** What the rule reads of a stored roll. */
export interface BlindFacts {
  blind: boolean;
  revealedAt: Date | null;
}

/** Whether this viewer must not see the roll's result: blind, not yet revealed, and the viewer is no Dispatcher. */
export function isHiddenFrom(roll: BlindFacts, viewerIsDispatcher: boolean): boolean {
  return roll.blind && roll.revealedAt === null && !viewerIsDispatcher;
}

/** Whether the roll is blind and still waits for a Dispatcher's reveal (what its message offers). */
export function awaitsReveal(roll: BlindFacts): boolean {
  return roll.blind && roll.revealedAt === null;
}

/** What else keeps a roll's result from players: a Dispatcher's `secret:` roll, a roll against a hidden CL. */
export interface SecrecyFacts extends BlindFacts {
  secret: boolean;
  hiddenChallengeLevel: boolean;
}

/** Whether a roll is kept from players (a journal leaves it out unless a Dispatcher asks): secret, against a hidden CL, or blind and not yet revealed. */
export function keptFromPlayers(roll: SecrecyFacts): boolean {
  return roll.secret || roll.hiddenChallengeLevel || awaitsReveal(roll);
}

/**
 * A blind roll a Dispatcher revealed: its whole result is in the channel, the CL of a blind call (hidden with it)
 * included, so every reader shows all of it to everyone.
 */
export function isRevealed(roll: BlindFacts): boolean {
  return roll.blind && roll.revealedAt !== null;
}
