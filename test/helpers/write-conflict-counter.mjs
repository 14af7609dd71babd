// Preloaded with `--import` into a bot process (test/scale/write-conflicts.test.ts): every write conflict PostgreSQL
// answers one of this process's statements with — SQLSTATE 40001 (serialization failure) or 40P01 (deadlock), at a
// statement or at COMMIT — is appended as one line to the file WRITE_CONFLICT_LOG names, so a test can count the
// conflicts of each process. It only watches: the error reaches the bot exactly as before. Plain JavaScript, since
// `--import` runs before tsx is registered.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const file = process.env.WRITE_CONFLICT_LOG;
if (!file) throw new Error('write-conflict-counter.mjs needs WRITE_CONFLICT_LOG, the file to count conflicts in');
fs.writeFileSync(file, '');

// The CommonJS build is the one module instance: pg's ES module entry re-exports it, and @prisma/adapter-pg's pool
// makes its connections from this Client class.
const pg = createRequire(import.meta.url)('pg');
const CONFLICTS = new Set(['40001', '40P01']);
const query = pg.Client.prototype.query;

pg.Client.prototype.query = function countingQuery(...args) {
  const result = query.apply(this, args);
  if (result && typeof result.then === 'function') {
    // A branch of its own: the caller still receives (and must handle) the rejection itself.
    result.then(undefined, (error) => {
      if (CONFLICTS.has(error?.code)) fs.appendFileSync(file, `${error.code}\n`);
    });
  }
  return result;
};
