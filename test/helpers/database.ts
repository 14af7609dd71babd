import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';

/** A fresh, migrated SQLite file of its own (a copy of the template the global setup migrated). */
export function freshDatabaseUrl(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-test-'));
  const file = path.join(folder, 'bot.db');
  fs.copyFileSync(inject('templateDatabase'), file);
  return `file:${file}`;
}

export async function freshStore(): Promise<Store> {
  return openStore(freshDatabaseUrl());
}
