/** PostgreSQL's DirectWrites: the roll log's prepared INSERT on the store's pool. postgres.ts opens it. */
import type pg from 'pg';
import { insertStatement, type DirectWrites } from './database.js';

/**
 * The roll log's INSERT on the pool, as a named prepared statement (parsed once per connection). A Date goes in as
 * its UTC wall time, since the column (`TIMESTAMP(3)`, no zone) keeps what it is given.
 */
export class PostgresDirectWrites implements DirectWrites {
  private readonly names = new Map<string, string>();

  constructor(private readonly pool: pg.Pool) {}

  async insert(table: string, columns: readonly string[], values: readonly unknown[]): Promise<void> {
    const text = insertStatement(table, columns, (index) => `$${index + 1}`);
    let name = this.names.get(text);
    if (!name) {
      name = `direct-${this.names.size + 1}`;
      this.names.set(text, name);
    }
    await this.pool.query({ name, text, values: values.map((value) => (value instanceof Date ? value.toISOString().slice(0, -1) : value)) });
  }

  async close(): Promise<void> {
    // The pool is closed with the database.
  }
}
