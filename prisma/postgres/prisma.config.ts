// Prisma CLI configuration for the PostgreSQL schema (derived from prisma/schema.prisma by prisma/postgres.ts):
// used to generate its client (`postinstall`). Paths are relative to this file.
import { defineConfig } from 'prisma/config';

// `prisma generate` checks the schema's url against its provider, even though the client gets its connection
// from the driver adapter, never from this url; so the CLI run with this file always sees a PostgreSQL one.
if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) process.env.DATABASE_URL = 'postgresql://localhost/tactalk';

export default defineConfig({
  experimental: { adapter: true },
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  // With the JavaScript engine the CLI downloads no engine binary (as prisma.config.ts).
  engine: 'js',
  async adapter() {
    // prisma/orm#27403: `prisma migrate deploy` over @prisma/adapter-pg fails in 6.19.
    throw new Error('PostgreSQL migrations are not applied by the Prisma CLI; see docs/scaling.md');
  },
});
