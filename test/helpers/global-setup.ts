// Migrates one template database with the real `prisma migrate deploy`; tests copy it instead of migrating each time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from '../../src/store/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-template-'));
  const file = path.join(folder, 'template.db');
  await migrateDatabase(`file:${file}`);
  project.provide('templateDatabase', file);
  return () => fs.rmSync(folder, { recursive: true, force: true });
}
