// `npm install` runs this (package.json's postinstall): generates the SQLite and the PostgreSQL clients offline.
// Prisma 7's CLI downloads its native schema engine before any command unless PRISMA_SCHEMA_ENGINE_BINARY names
// one; `generate` never runs it, so a stub that explains itself stands in (prisma/no-schema-engine).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const prismaFolder = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(prismaFolder, '..', 'node_modules', 'prisma', 'build', 'index.js');
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: path.join(prismaFolder, 'no-schema-engine'), PRISMA_HIDE_UPDATE_MESSAGE: '1' };
for (const config of ['prisma.config.ts', 'prisma/postgres/prisma.config.ts']) {
  execFileSync(process.execPath, [cli, 'generate', '--config', config], { cwd: path.join(prismaFolder, '..'), env, stdio: 'inherit' });
}
