/**
 * Turns across processes: work that must not overlap with the same work in another bot process (two presses on one
 * contest arriving at two shard processes while a shard moves) runs while holding a PostgreSQL advisory lock.
 *
 * The lock is a session lock on a connection of a small pool of its own, held from before the work to after it.
 * Not the store's pool: the work itself queries through that pool, and turns holding its every connection while
 * waiting for one more would wait for each other. On SQLite one process owns the file and the caller's own
 * in-memory turn is all there is.
 */
import type pg from 'pg';

export interface Turns {
  /** Runs `work` when no other process runs work under the same `kind` and `id`, and holds the others off meanwhile. */
  inTurn<T>(kind: TurnKind, id: number, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The advisory lock namespaces (the first of pg_advisory_lock's two keys); the migration lock uses the one-key form. */
const TURN_NAMESPACES = { contest: 0x7461_0001 } as const;
export type TurnKind = keyof typeof TURN_NAMESPACES;

/** At most this many turns held at once by one process; one more waits for a connection (up to the lock wait). */
const TURN_CONNECTIONS = 10;

/** SQLite's: one process, nothing to hold off. */
export function processLocalTurns(): Turns {
  return { inTurn: (_kind, _id, work) => work(), close: async () => undefined };
}

export async function postgresTurns(databaseUrl: string): Promise<Turns> {
  // Loaded here: a bot on SQLite never needs the driver.
  const [{ default: driver }, { STATEMENT_TIMEOUT_MS }] = await Promise.all([import('pg'), import('./postgres.js')]);
  const pool: pg.Pool = new driver.Pool({
    connectionString: databaseUrl,
    max: TURN_CONNECTIONS,
    // Waiting for another process's turn ends, like any lock wait, after the lock timeout: an error, not a hang.
    connectionTimeoutMillis: STATEMENT_TIMEOUT_MS,
    lock_timeout: STATEMENT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    application_name: 'tactalk-bot turns',
  });
  pool.on('error', () => undefined);
  return {
    async inTurn(kind, id, work) {
      const namespace = TURN_NAMESPACES[kind];
      const client = await pool.connect();
      // A connection lost while held: the turn is over for the other processes (the lock went with it), this work
      // goes on to its compare-and-set, and the connection is not reused. Unheard, the error would end the process.
      let broken = false;
      const lost = (): void => {
        broken = true;
      };
      client.on('error', lost);
      try {
        await client.query('SELECT pg_advisory_lock($1, $2)', [namespace, id]);
      } catch (error) {
        client.removeListener('error', lost);
        client.release(true);
        throw error;
      }
      try {
        return await work();
      } finally {
        try {
          if (!broken) await client.query('SELECT pg_advisory_unlock($1, $2)', [namespace, id]);
        } catch {
          // The lock goes with the session: a connection that could not release it is closed, not reused.
          broken = true;
        }
        client.removeListener('error', lost);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
