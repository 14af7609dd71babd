/**
 * The client the store talks to, whichever database DATABASE_URL names: the drivers (sqlite.ts, postgres.ts) open
 * one, and database.ts and the repositories use it. It sits below all of them, so no driver imports database.ts,
 * which loads the drivers.
 */
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * Typed as the SQLite client: the PostgreSQL one (generated from the same models by `npm run schema:postgres`) has
 * the same model API, plus options for PostgreSQL only that the store does not use.
 */
export type Database = PrismaClient;
