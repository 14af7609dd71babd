// Prisma CLI configuration: `prisma generate` (run by `npm install`, see package.json's postinstall). The bot applies
// its own migrations (src/store/migrations.ts), so no command here needs Prisma's schema engine, which its CLI would
// download; `migrate diff` for a new migration runs through prisma/schema-tool.ts instead.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL?.startsWith('file:') ? process.env.DATABASE_URL : 'file:./data/bot.db' },
});
