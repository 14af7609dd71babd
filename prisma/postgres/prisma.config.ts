// Prisma CLI configuration for the PostgreSQL schema (derived from prisma/schema.prisma by prisma/postgres.ts): used
// to generate its client (`postinstall`). Paths are relative to this file. The bot applies the migrations itself.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  datasource: { url: /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL! : 'postgresql://localhost/tactalk' },
});
