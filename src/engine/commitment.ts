/**
 * Dice you can prove fair (commit and reveal). A play session draws a secret; its hash, the commitment, is published
 * when the session starts; every roll's seed in it is derived from the secret and the roll's index; at the session's
 * end the secret is published, and anyone can recompute every seed and so every roll (src/verify-journal.ts), and
 * check that the secret is the one committed to. The bot cannot pick a roll's seed after seeing what it gives.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** A new session's secret: 256 random bits from the operating system, as hex. */
export function newSessionSecret(): string {
  return randomBytes(32).toString('hex');
}

/** What is published at a session's start: the SHA-256 of its secret, as hex. */
export function commitmentOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Where a seed comes from: the session and the seed's index in it (0, 1, 2…). */
export interface SeedOrigin {
  sessionId: number;
  seedIndex: number;
}

const DERIVED_SEED = /^c(\d{1,15})-(\d{1,15})-([0-9a-f]{32})$/;

/**
 * The seed of roll number `seedIndex` of a session: its origin in the clear (so a roll's message can show its index),
 * then 128 bits of HMAC-SHA256 keyed with the secret, which no one can compute before the secret is published.
 */
export function derivedSeed(secret: string, origin: SeedOrigin): string {
  const label = `${origin.sessionId}-${origin.seedIndex}`;
  const mac = createHmac('sha256', secret).update(label, 'utf8').digest('hex').slice(0, 32);
  return `c${label}-${mac}`;
}

/** The session and index a seed was derived for; null for a seed of its own (every roll made before sessions). */
export function seedOrigin(seed: string): SeedOrigin | null {
  const match = DERIVED_SEED.exec(seed);
  if (!match) return null;
  return { sessionId: Number(match[1]), seedIndex: Number(match[2]) };
}

/** Whether `seed` is the one the secret gives at its origin: what the verifier checks for every roll. */
export function seedMatchesSecret(seed: string, secret: string): boolean {
  const origin = seedOrigin(seed);
  return origin !== null && derivedSeed(secret, origin) === seed;
}

/**
 * The machine-readable part of a journal (`/journal` embeds it in its Markdown and in its HTML page), from which the
 * verifier recomputes every roll. Changing a shown die, a seed, or the secret makes it refuse the journal.
 */
export interface JournalProof {
  format: 'tactalk-journal/1';
  guildId: string;
  sessions: JournalProofSession[];
  rolls: JournalProofRoll[];
}

export interface JournalProofSession {
  id: number;
  kind: 'play' | 'day';
  title: string;
  commitment: string;
  /** Null while the session is open: its seeds cannot be checked yet. */
  secret: string | null;
  openedAt: string;
  closedAt: string | null;
}

export interface JournalProofRoll {
  id: string;
  kind: string;
  system: string;
  /** The stored inputs the engine re-derives the roll from. */
  inputs: unknown;
  seed: string;
  sessionId: number | null;
  seedIndex: number | null;
  /** The dice as stored; the verifier re-derives them from the seed and compares. */
  dice: unknown;
  total: number | null;
  success: boolean | null;
  createdAt: string;
}

/** The markers the proof is wrapped in, in Markdown (a fenced block) and in HTML (a script element). */
export const JOURNAL_PROOF_MARKDOWN_FENCE = '```json tactalk-journal-proof';
export const JOURNAL_PROOF_HTML_ID = 'tactalk-journal-proof';
