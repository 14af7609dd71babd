import { z } from 'zod';
import type { SheetRules } from '../sheet.js';
import { D100_TACTICS_SHEET } from './d100-tactics/sheet.js';
import { D10_POOL_SHEET } from './d10-pool/sheet.js';
import { D6_POOL_SHEET } from './d6-pool/sheet.js';
import { RESULT_POINTS_SHEET } from './result-points/sheet.js';
import { TACTALK_SHEET } from './tactalk/sheet.js';

/**
 * The rule systems the bot knows (RULES 6.1), defined once: each id is the folder under src/engine/systems/ and
 * the `system` stored on sheets, server settings and roll log entries. A server picks its default; a sheet
 * carries its own.
 */
export const SYSTEMS = [
  { id: 'tactalk', name: 'Tac Talk (Decision Engine)', command: '/roll' },
  { id: 'd100-tactics', name: 'd100 roll-under tactics', command: '/tactics' },
  { id: 'result-points', name: 'Die codes and result points', command: '/code' },
  { id: 'd6-pool', name: 'd6 pools with pushing', command: '/pool' },
  { id: 'd10-pool', name: 'd10 pools', command: '/d10' },
] as const;

export type SystemId = (typeof SYSTEMS)[number]['id'];

export const SYSTEM_IDS: readonly SystemId[] = SYSTEMS.map((system) => system.id);

export const DEFAULT_SYSTEM: SystemId = 'tactalk';

export function isSystemId(value: unknown): value is SystemId {
  return typeof value === 'string' && (SYSTEM_IDS as readonly string[]).includes(value);
}

export const systemIdSchema = z.custom<SystemId>(isSystemId, { error: `must be one of ${SYSTEM_IDS.join(', ')}` });

/** The display name of a system id; an unknown id (an old row) is shown as it is. */
export function systemName(id: string): string {
  return SYSTEMS.find((system) => system.id === id)?.name ?? id;
}

/** The command that rolls a system's sheets (`/pool` for d6 pools); an unknown id gets none. */
export function systemCommand(id: string): string {
  return SYSTEMS.find((system) => system.id === id)?.command ?? '/sheet';
}

/** Choices for a slash command string option: display name, id as the value. */
export function systemChoices(): Array<{ name: string; value: string }> {
  return SYSTEMS.map((system) => ({ name: system.name, value: system.id }));
}

/** What a sheet of each system holds, defined in the system's folder (`<id>/sheet.ts`), checked when entries are set. */
const SHEET_RULES: Record<SystemId, SheetRules> = {
  tactalk: TACTALK_SHEET,
  'd100-tactics': D100_TACTICS_SHEET,
  'result-points': RESULT_POINTS_SHEET,
  'd6-pool': D6_POOL_SHEET,
  'd10-pool': D10_POOL_SHEET,
};

/** The sheet rules of a system id; an unknown id (an old row) is read as Tac Talk, the sheets made before systems. */
export function sheetRulesOf(id: string): SheetRules {
  return isSystemId(id) ? SHEET_RULES[id] : SHEET_RULES[DEFAULT_SYSTEM];
}
