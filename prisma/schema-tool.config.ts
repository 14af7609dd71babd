// Configuration of Prisma 6.19's CLI (the dev dependency `prisma-schema-tool`), kept for the two commands that need a
// schema engine, which Prisma 7's CLI runs only as a native binary it downloads: `migrate diff`, to write a new
// migration (prisma/new-migration.ts, prisma/postgres.ts), and `migrate status`, which the tests use to check that
// the bot's own migration bookkeeping is Prisma's. Its JavaScript schema engine needs no download. The bot itself
// never runs it: it applies its migrations itself (src/store/migrations.ts).
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { defineConfig } from 'prisma-schema-tool/config';

const databaseUrl = process.env.DATABASE_URL?.startsWith('file:') ? process.env.DATABASE_URL : 'file::memory:';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  async adapter() {
    return new PrismaBetterSqlite3({ url: databaseUrl });
  },
});
