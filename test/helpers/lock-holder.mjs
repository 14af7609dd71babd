// Another program holding the bot's SQLite file: opens it, takes the write lock (BEGIN IMMEDIATE), says so on
// stdout, keeps it for the given milliseconds, commits and says so. Plain JavaScript so that it runs as a separate
// OS process with nothing but node and better-sqlite3. Usage: node lock-holder.mjs <file> <holdMs>
import Database from 'better-sqlite3';

const [file, holdText] = process.argv.slice(2);
const holdMs = Number(holdText);
if (!file || !Number.isFinite(holdMs)) {
  console.error('usage: node lock-holder.mjs <file> <holdMs>');
  process.exit(2);
}
// Its own busy timeout only matters if the bot holds the lock at this moment; the bot's transactions last milliseconds.
const db = new Database(file, { timeout: 5000 });
db.exec('BEGIN IMMEDIATE');
process.stdout.write(`locked ${Date.now()}\n`);
setTimeout(() => {
  db.exec('COMMIT');
  db.close();
  process.stdout.write(`released ${Date.now()}\n`);
}, holdMs);
