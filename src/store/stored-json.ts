/**
 * JSON the store wrote and reads back (a contest's state, a table's rows, …), checked by the schema of its shape,
 * which sits next to the type it gives. A value that does not match is our bug or a damaged database, never the
 * user's doing: a plain Error naming the table, the row and the path, which the router logs (the user gets the
 * apology with the interaction id). Older shapes still read: their schemas fill in what they lack.
 */
import { z } from 'zod';
import { firstProblem, pathText } from '../engine/schema.js';

/** Where the JSON was read from: the table (as Prisma names its model), the row's id, the column. */
export interface StoredAt {
  table: string;
  id: number | string;
  column: string;
}

export function readStored<S extends z.ZodType>(schema: S, text: string, at: StoredAt): z.output<S> {
  const where = `${at.table} row ${at.id}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where}: \`${at.column}\` is not JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { path, message } = firstProblem(parsed.error);
  throw new Error(`${where}: \`${pathText([at.column, ...path])}\` does not read as stored: ${message}`, { cause: parsed.error });
}

/** JSON whose reader checks its shape itself: a roll's inputs, dice and result, by kind (src/engine/replay-kind.ts). */
export function readStoredJson(text: string, at: StoredAt): unknown {
  return readStored(z.unknown(), text, at);
}

/** Name keys kept as a JSON list in one column: the skills a condition applies to. */
export const storedNameKeysSchema = z.array(z.string());
