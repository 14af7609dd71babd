// Another program holding the bot's SQLite file: opens it, takes the write lock (BEGIN IMMEDIATE), says so on
// stdout, keeps it until a line "release" arrives on stdin, commits and says so. Plain JavaScript so that it runs as a
// separate OS process with nothing but node and better-sqlite3. Usage: node lock-holder.mjs <file>
import readline from 'node:readline';
import Database from 'better-sqlite3';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node lock-holder.mjs <file>');
  process.exit(2);
}
// Its own busy timeout only matters if the bot holds the lock at this moment; the bot's transactions last milliseconds.
const db = new Database(file, { timeout: 5000 });
db.exec('BEGIN IMMEDIATE');
process.stdout.write(`locked ${Date.now()}\n`);
let released = false;
const input = readline.createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (line.trim() !== 'release' || released) return;
  released = true;
  db.exec('COMMIT');
  db.close();
  process.stdout.write(`released ${Date.now()}\n`);
  input.close();
});
// The test process ended (or failed) without releasing it: let go rather than hold the file for ever.
input.on('close', () => {
  if (released) return;
  released = true;
  db.exec('ROLLBACK');
  db.close();
});
