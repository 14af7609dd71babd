/**
 * What a member typed to make a roll: the command, the subcommand path and the options as given. Stored with the roll
 * (Roll.invocation) and with a saved roll (SavedRoll.roll), it is what "Roll again" and `/roll saved` run anew through
 * the same handler, so the sheet is read as it is then and every check applies again. Pure data: the discord layer
 * reads it from an interaction and turns it back into options a handler reads.
 */
import { z } from 'zod';

/** Discord's option types a typed roll may hold: string 3, integer 4, boolean 5, user 6, number 10. */
export const INVOCATION_OPTION_TYPES = [3, 4, 5, 6, 10] as const;

/** One option as typed: a user option keeps the user's id. */
export interface InvocationOption {
  name: string;
  type: (typeof INVOCATION_OPTION_TYPES)[number];
  value: string | number | boolean;
}

export interface RollInvocation {
  /** The command's name: `roll`, `pool`. */
  command: string;
  /** The runnable path: `challenge`, `skill set`, '' for a command without subcommands. */
  path: string;
  options: InvocationOption[];
}

/** The most characters an invocation takes as JSON: a long `/roll linked` fits, a pasted essay does not. */
export const INVOCATION_MAX_CHARS = 2000;

const optionSchema = z.object({
  name: z.string().min(1).max(32),
  type: z.union(INVOCATION_OPTION_TYPES.map((type) => z.literal(type))),
  value: z.union([z.string(), z.number(), z.boolean()]),
});

export const invocationSchema = z.object({
  command: z.string().min(1).max(32),
  path: z.string().max(65),
  options: z.array(optionSchema).max(25),
});

/** The invocation as stored; null when it would be longer than INVOCATION_MAX_CHARS (it is then not kept). */
export function invocationJson(invocation: RollInvocation): string | null {
  const json = JSON.stringify(invocation);
  return json.length <= INVOCATION_MAX_CHARS ? json : null;
}

/** A stored invocation read back; null for anything that is not one (a row from a later version, a hand-edited file). */
export function readInvocation(stored: unknown): RollInvocation | null {
  const parsed = invocationSchema.safeParse(typeof stored === 'string' ? safeJson(stored) : stored);
  return parsed.success ? (parsed.data as RollInvocation) : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** How the invocation reads as typed: `/roll challenge skill:Climbing cl:90`. */
export function invocationText(invocation: RollInvocation): string {
  const head = ['/' + invocation.command, invocation.path].filter(Boolean).join(' ');
  const options = invocation.options.map((option) => `${option.name}:${option.type === 6 ? `<user ${option.value}>` : String(option.value)}`);
  return [head, ...options].join(' ');
}
