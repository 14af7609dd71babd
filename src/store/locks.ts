/**
 * Turns across processes: work that must not overlap with the same work in another bot process (two presses on one
 * contest arriving at two shard processes while a shard moves) runs while holding a PostgreSQL advisory lock.
 *
 * The lock is a session lock on a connection of the store's one pool, held from before the work to after it. At
 * most TURN_CONNECTIONS turns hold one at once, and the pool has that many connections more than the queries need
 * (postgres.ts): the work itself queries through the same pool, and turns holding its every connection while waiting
 * for one more would wait for each other. On SQLite one process owns the file and the caller's own in-memory turn is
 * all there is.
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

/** SQLite's: one process, nothing to hold off. */
export function processLocalTurns(): Turns {
  return { inTurn: (_kind, _id, work) => work(), close: async () => undefined };
}

/** At most this many turns held at once by one process, each on a connection of the pool. */
export const TURN_CONNECTIONS = 10;

/** At most `slots` holders at once; the others wait in line. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(slots: number) {
    this.free = slots;
  }

  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/** Turns on `pool`, the store's one pool (postgres.ts). */
export function postgresTurns(pool: pg.Pool): Turns {
  const slots = new Slots(TURN_CONNECTIONS);
  return {
    async inTurn(kind, id, work) {
      const namespace = TURN_NAMESPACES[kind];
      const slot = await slots.take();
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        slot();
        throw error;
      }
      // A connection lost while held: the turn is over for the other processes (the lock went with it), this work
      // goes on to its compare-and-set, and the connection is not reused. Unheard, the error would end the process.
      let broken = false;
      const lost = (): void => {
        broken = true;
      };
      client.on('error', lost);
      const giveBack = (): void => {
        client.removeListener('error', lost);
        client.release(broken);
        slot();
      };
      try {
        await client.query('SELECT pg_advisory_lock($1, $2)', [namespace, id]);
      } catch (error) {
        broken = true;
        giveBack();
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
        giveBack();
      }
    },
    // The pool is closed with the database.
    close: async () => undefined,
  };
}
