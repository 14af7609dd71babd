/** PostgreSQL's DirectWrites: the roll log's and a contest step's prepared statements on the store's pool. postgres.ts opens it. */
import pg from 'pg';
import type { DirectStatement, DirectWrites } from './database.js';

/** `timestamp without time zone`: the columns keep UTC wall time (as Prisma writes it), so they are read as UTC. */
const TIMESTAMP_OID = 1114;
const utcTimestamps = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID ? (text: string) => new Date(`${text.replace(' ', 'T')}Z`) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Each statement is a named prepared statement (parsed once per connection). A Date goes in as its UTC wall time,
 * since the column (`TIMESTAMP(3)`, no zone) keeps what it is given.
 */
export class PostgresDirectWrites implements DirectWrites {
  private readonly prepared = new Map<string, { name: string; text: string }>();

  constructor(private readonly pool: pg.Pool) {}

  /** The statement as pg runs it: `?` numbered `$1`, `$2`, … (no statement here has a `?` of its own). */
  private query({ sql, values }: DirectStatement): pg.QueryConfig {
    let prepared = this.prepared.get(sql);
    if (!prepared) {
      let index = 0;
      prepared = { name: `direct-${this.prepared.size + 1}`, text: sql.replace(/\?/g, () => `$${++index}`) };
      this.prepared.set(sql, prepared);
    }
    return { ...prepared, values: values.map((value) => (value instanceof Date ? value.toISOString().slice(0, -1) : value)), types: utcTimestamps };
  }


  async run(statement: DirectStatement): Promise<number> {
    return (await this.pool.query(this.query(statement))).rowCount ?? 0;
  }

  async rows<Row>(statement: DirectStatement): Promise<Row[]> {
    return (await this.pool.query(this.query(statement))).rows as Row[];
  }

  /**
   * READ COMMITTED is enough: an UPDATE … WHERE version = ? that waited for another writer's row lock checks the
   * row again as that writer left it, so of two compare-and-sets on one version exactly one changes it.
   */
  async changeAll(statements: readonly DirectStatement[]): Promise<boolean> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      for (const statement of statements) {
        if (((await client.query(this.query(statement))).rowCount ?? 0) === 0) {
          await client.query('ROLLBACK');
          return false;
        }
      }
      await client.query('COMMIT');
      return true;
    } catch (error) {
      // A connection that cannot even roll back is closed, not reused mid-transaction.
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    // The pool is closed with the database.
  }
}
