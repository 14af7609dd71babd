// Prisma CLI configuration. The JavaScript schema engine runs migrations through the better-sqlite3 adapter,
// so no native engine binary is ever downloaded (see docs/architecture.md).
import 'dotenv/config';
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';

const databaseUrl = process.env.DATABASE_URL ?? 'file:./data/bot.db';
process.env.DATABASE_URL = databaseUrl;
// SQLite creates the file but not its folder.
const databaseFile = databaseUrl.replace(/^file:/, '');
if (databaseFile !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(databaseFile)), { recursive: true });

export default defineConfig({
  experimental: { adapter: true },
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  engine: 'js',
  async adapter() {
    return new PrismaBetterSQLite3({ url: databaseUrl });
  },
});
