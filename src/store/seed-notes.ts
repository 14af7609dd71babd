/**
 * What a roll's message says of its seed (its index in a session, and for a day session's first roll the session's
 * commitment), kept in this process between the seed being handed out and the roll's message being drawn: the views
 * draw a roll's footer from its id alone (`rollFooter`), at some twenty sites, so the note is looked up by the id the
 * roll log gave the roll rather than threaded through each of them. A roll is drawn by the process that made it; one
 * redrawn after a restart shows its footer without the note (its seed, and so its index, is in the roll log).
 */
import { seedOrigin, type SeedOrigin } from '../engine/commitment.js';

export interface SeedNote extends SeedOrigin {
  /** The commitment of a day session, on the seed that opens it: where the day's commitment reaches the channel. */
  dayCommitment: string | null;
}

/** Enough for every roll a busy process makes while its messages are drawn; the oldest go first. */
const KEPT = 5_000;

const bySeed = new Map<string, SeedNote>();
const byRoll = new Map<string, SeedNote>();

function keep(map: Map<string, SeedNote>, key: string, note: SeedNote): void {
  map.set(key, note);
  if (map.size > KEPT) map.delete(map.keys().next().value!);
}

/** A seed handed out for a session (src/store/sessions.ts). */
export function noteSeed(seed: string, note: SeedNote): void {
  keep(bySeed, seed, note);
}

/** The roll log stored a roll under `rollId` with `seed`: its message may now show where the seed came from. */
export function noteRollSeed(rollId: string, seed: string): void {
  const noted = bySeed.get(seed);
  if (noted) {
    bySeed.delete(seed);
    keep(byRoll, rollId, noted);
    return;
  }
  const origin = seedOrigin(seed);
  if (origin) keep(byRoll, rollId, { ...origin, dayCommitment: null });
}

/** Where the seed of the roll stored under `rollId` came from; null for a seed of its own or a roll of another process. */
export function seedNoteOfRoll(rollId: string): SeedNote | null {
  return byRoll.get(rollId) ?? null;
}
