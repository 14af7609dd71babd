/**
 * What a rule system is, declared as one object in its folder (`<id>/index.ts`): its id, its name, the command that
 * rolls it, what its sheets hold, the kinds of roll it stores and its initiative rules. `systemRegistry` derives,
 * from a list of such declarations, everything the rest of the bot asks of the systems (src/engine/systems/index.ts
 * builds the bot's own from its list), so a new system is a new folder and one entry in that list.
 */
import { z } from 'zod';
import type { InitiativeRule } from '../initiative-rule.js';
import type { ReplayKinds } from '../replay-kind.js';
import type { SheetRules } from '../sheet.js';

export interface RuleSystem<Id extends string = string, Kinds extends ReplayKinds = ReplayKinds> {
  /** The folder under src/engine/systems/ and the `system` stored on sheets, server settings and roll log entries. */
  id: Id;
  /** Its name where players read it (/config's choices, a sheet's header). */
  name: string;
  /** The command that rolls its sheets, as typed (`/pool`). */
  command: string;
  /** What its sheets hold, checked when entries are set. */
  sheet: SheetRules;
  /** Every kind of roll it stores, by the kind the roll log names, each rolled again from its seed. */
  replays: Kinds;
  /** How its scenes are ordered; none: the initiative tracker offers it a manual order. */
  initiative: ReadonlyArray<InitiativeRule<Id>>;
}

/** A system's declaration, its id and its kinds of roll kept as literal types for the registries built from it. */
export function defineSystem<const Id extends string, Kinds extends ReplayKinds>(system: RuleSystem<Id, Kinds>): RuleSystem<Id, Kinds> {
  return system;
}

/** Everything the bot asks of a list of systems; `Id` is the union of their ids. */
export interface SystemRegistry<Id extends string> {
  ids: readonly Id[];
  /** The first listed: what a row stored before systems existed, or naming a system no longer known, is read as. */
  defaultSystem: Id;
  isSystemId(value: unknown): value is Id;
  idSchema: z.ZodCustom<Id, Id>;
  /** The display name of a system id; an unknown id (an old row) is shown as it is. */
  systemName(id: string): string;
  /** The command that rolls a system's sheets (`/pool` for d6 pools); an unknown id gets `/sheet`. */
  systemCommand(id: string): string;
  /** Choices for a slash command string option: display name, id as the value. */
  systemChoices(): Array<{ name: string; value: string }>;
  /** The sheet rules of a system id; an unknown id is read as the default system's. */
  sheetRulesOf(id: string): SheetRules;
  /** Every system's initiative rules, in the order listed. */
  initiativeRules: ReadonlyArray<InitiativeRule<Id>>;
  /** The systems with no initiative rule of their own, in the order listed. */
  systemsWithoutInitiative: readonly Id[];
}

/** The registry of a list of system declarations; two systems of one id would make every stored row ambiguous. */
export function systemRegistry<const S extends readonly [RuleSystem, ...RuleSystem[]]>(systems: S): SystemRegistry<S[number]['id']> {
  type Id = S[number]['id'];
  const ids: Id[] = systems.map((system) => system.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice !== undefined) throw new Error(`The rule system "${twice}" is declared twice.`);
  const byId = new Map<string, S[number]>(systems.map((system) => [system.id, system]));
  const defaultSystem = systems[0];
  const isSystemId = (value: unknown): value is Id => typeof value === 'string' && byId.has(value);
  return {
    ids,
    defaultSystem: defaultSystem.id,
    isSystemId,
    idSchema: z.custom<Id>(isSystemId, { error: `must be one of ${ids.join(', ')}` }),
    systemName: (id) => byId.get(id)?.name ?? id,
    systemCommand: (id) => byId.get(id)?.command ?? '/sheet',
    systemChoices: () => systems.map((system) => ({ name: system.name, value: system.id })),
    sheetRulesOf: (id) => (byId.get(id) ?? defaultSystem).sheet,
    initiativeRules: systems.flatMap((system) => system.initiative),
    systemsWithoutInitiative: systems.filter((system) => system.initiative.length === 0).map((system) => system.id),
  };
}
