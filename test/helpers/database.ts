import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, inject } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { adminQuery } from './postgres-server.js';

/** A fresh, migrated SQLite file of its own (a copy of the template the global setup migrated). */
export function freshDatabaseUrl(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-test-'));
  const file = path.join(folder, 'bot.db');
  fs.copyFileSync(inject('templateDatabase'), file);
  return `file:${file}`;
}

/** Whether this run's store tests are on PostgreSQL (`npm run test:scale` runs the store suite there too). */
export const onPostgres = process.env.TEST_DATABASE === 'postgresql';

/** A fresh, migrated PostgreSQL database of its own on the scale suite's server (a copy of its template). */
export async function freshPostgresUrl(): Promise<string> {
  const admin = inject('postgresAdminUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh store on the database this run tests: SQLite by default, PostgreSQL under TEST_DATABASE=postgresql. */
export async function freshStore(): Promise<Store> {
  return openStore(onPostgres ? await freshPostgresUrl() : freshDatabaseUrl());
}

/** A fresh store for each test of the suite this is called in (see freshStore), closed after the test. */
export function freshStoreEachTest(use: (store: Store) => void): void {
  let store: Store | undefined;
  beforeEach(async () => {
    store = await freshStore();
    use(store);
  });
  afterEach(async () => {
    await store?.close();
  });
}

/** Two stores on one new PostgreSQL database, as two bot processes would open it (the scale suite). */
export async function twoProcessStores(): Promise<{ url: string; a: Store; b: Store; close(): Promise<void> }> {
  const url = await freshPostgresUrl();
  const a = await openStore(url);
  const b = await openStore(url);
  return {
    url,
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
    },
  };
}
