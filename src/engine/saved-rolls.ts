/**
 * Saved rolls: a name for what a member typed to roll (src/engine/invocation.ts), kept on a sheet (its owner rolls it
 * with that sheet) or shared by a Dispatcher with the whole server (each member rolls it with their own sheet).
 */
import { checkName } from './names.js';
import type { RollInvocation } from './invocation.js';

export const SAVED_ROLL_LIMITS = {
  /** Saved rolls one sheet holds: the autocomplete shows 25 at once. */
  perSheet: 25,
  /** Rolls a server shares with its members. */
  perServer: 50,
  nameLength: 40,
} as const;

/** Where a saved roll lives: on one sheet, or shared with the server. */
export type SavedRollScope = `operator:${number}` | 'server';

export function sheetScope(sheetId: number): SavedRollScope {
  return `operator:${sheetId}`;
}

export interface SavedRoll {
  id: number;
  scope: SavedRollScope;
  name: string;
  invocation: RollInvocation;
  createdBy: string;
}

/** A saved roll's name, checked as names are (names.ts); at most 40 characters. */
export function validSavedRollName(raw: string): string {
  return checkName('saved roll', raw, SAVED_ROLL_LIMITS.nameLength);
}
