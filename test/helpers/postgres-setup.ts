// The scale suite's PostgreSQL (npm run test:scale): one server for the run (test/helpers/postgres-server.ts) and
// one template database migrated by the bot's own migration step; tests copy it (CREATE DATABASE … TEMPLATE)
// instead of migrating each time.
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from '../../src/store/database.js';
import { adminQuery, startPostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    postgresTemplate: string;
  }
}

export const POSTGRES_TEMPLATE = 'tactalk_template';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  await adminQuery(server.adminUrl, `DROP DATABASE IF EXISTS ${POSTGRES_TEMPLATE}`, `CREATE DATABASE ${POSTGRES_TEMPLATE}`);
  await migrateDatabase(server.urlOf(POSTGRES_TEMPLATE));
  project.provide('postgresAdminUrl', server.adminUrl);
  project.provide('postgresTemplate', POSTGRES_TEMPLATE);
  return () => server.stop();
}
