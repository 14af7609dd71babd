/**
 * The rule systems the bot knows (RULES 6.1): one list of their declarations, each in its own folder
 * (`<id>/index.ts`), from which everything else about them is derived. Each id is the `system` stored on sheets,
 * server settings and roll log entries. A server picks its default; a sheet carries its own.
 */
import { d100Tactics } from './d100-tactics/index.js';
import { d10Pool } from './d10-pool/index.js';
import { d6Pool } from './d6-pool/index.js';
import { resultPoints } from './result-points/index.js';
import { systemRegistry } from './system.js';
import { tactalk } from './tactalk/index.js';

/** Tac Talk first: the sheets made before systems existed are its sheets. */
export const SYSTEMS = [tactalk, d100Tactics, resultPoints, d6Pool, d10Pool] as const;

export type SystemId = (typeof SYSTEMS)[number]['id'];

const registry = systemRegistry(SYSTEMS);

export const SYSTEM_IDS: readonly SystemId[] = registry.ids;
export const DEFAULT_SYSTEM: SystemId = registry.defaultSystem;
export const systemIdSchema = registry.idSchema;
export const { isSystemId, systemName, systemCommand, systemChoices, sheetRulesOf, initiativeRules, systemsWithoutInitiative } = registry;
