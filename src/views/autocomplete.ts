/** Autocomplete choices, filtered by what the user typed and kept inside Discord's limits. */
import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import { nameKey } from '../engine/names.js';
import { sheetRulesOf, systemName, type SystemId } from '../engine/systems/index.js';
import { DISCORD_LIMITS, truncate } from './limits.js';

type Choice = ApplicationCommandOptionChoiceData<string>;

function rank(names: readonly string[], typed: string): string[] {
  const key = nameKey(typed);
  return names
    .filter((name) => nameKey(name).includes(key))
    .sort((a, b) => Number(!nameKey(a).startsWith(key)) - Number(!nameKey(b).startsWith(key)) || a.localeCompare(b));
}

/** Choices for one name. `label` adds a hint after the name (e.g. the skill level). */
export function nameChoices(names: readonly string[], typed: string, label: (name: string) => string = (name) => name): Choice[] {
  return rank(names, typed)
    .slice(0, DISCORD_LIMITS.autocompleteChoices)
    .map((name) => ({ name: truncate(label(name), DISCORD_LIMITS.choiceName), value: truncate(name, DISCORD_LIMITS.choiceValue) }));
}

/**
 * Choices for a comma list ("Acuity, Dex…"): the names already typed stay, the last one is completed from the
 * names not yet in the list.
 */
export function listChoices(names: readonly string[], typed: string): Choice[] {
  const parts = typed.split(',');
  const last = parts.pop() ?? '';
  const done = parts.map((part) => part.trim()).filter((part) => part.length > 0);
  const doneKeys = new Set(done.map(nameKey));
  const prefix = done.length > 0 ? `${done.join(', ')}, ` : '';
  const choices = rank(names.filter((name) => !doneKeys.has(nameKey(name))), last)
    .map((name) => prefix + name)
    .filter((value) => value.length <= DISCORD_LIMITS.choiceValue)
    .slice(0, DISCORD_LIMITS.autocompleteChoices)
    .map((value) => ({ name: value, value }));
  return choices;
}

/**
 * The one choice an autocomplete offers a player with no sheet of the command's system: how to make one. Its value,
 * if sent, is refused by the command with the same advice (`isNoSheetChoice`).
 */
export function noSheetChoice(system: string): Choice[] {
  const name = systemName(system);
  const then = ` — then add ${sheetRulesOf(system).firstEntries}`;
  const full = `No ${name} sheet yet: /sheet create name:… system:${name}${then}`;
  // A long system name twice may not fit a choice: the system (picked from the option's list) goes first.
  return [
    {
      name: truncate(full.length <= DISCORD_LIMITS.choiceName ? full : `No ${name} sheet yet: /sheet create name:…${then}`, DISCORD_LIMITS.choiceName),
      value: truncate(NO_SHEET_VALUE, DISCORD_LIMITS.choiceValue),
    },
  ];
}

const NO_SHEET_VALUE = '(no sheet yet)';

/** Whether a typed value is the no-sheet choice sent as it is. */
export function isNoSheetChoice(value: string | null | undefined): boolean {
  return value === NO_SHEET_VALUE;
}

const UNPLAYED_VALUE = '(not played here)';

/**
 * The one choice an autocomplete offers in a command of a system the server does not play (Discord lists every
 * command everywhere): how to turn the system on. Sent as it is, the command is refused with the same advice.
 */
export function unplayedChoice(command: string, systems: readonly SystemId[]): Choice[] {
  const names = systems.map((id) => systemName(id)).join(' or ');
  return [{ name: truncate(`${command} is for ${names}, not played here: /config systems adds it`, DISCORD_LIMITS.choiceName), value: UNPLAYED_VALUE }];
}
