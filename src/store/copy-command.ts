/**
 * `npm run db:copy -- <sqlite url> <postgresql url>` (or `--from <sqlite url> --to <postgresql url>`): copies the
 * bot's SQLite database into a new PostgreSQL one (copy.ts) and prints the counts, table by table. Exits 1 when the
 * copy is refused or fails, or when a count differs; nothing is kept in the target then.
 */
import { parseArgs } from 'node:util';
import { copySqliteToPostgres, CopyRefused, countsTable } from './copy.js';
import { redactPasswords } from '../log.js';

const USAGE = 'usage: npm run db:copy -- <sqlite url> <postgresql url>\n   e.g. npm run db:copy -- file:./data/bot.db postgresql://tactalk:secret@127.0.0.1:5432/tactalk\n   (or --from <sqlite url> --to <postgresql url>). Stop the bot first: rows it writes during the copy are not copied.';

function urls(): { from: string; to: string } | null {
  const { values, positionals } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } }, allowPositionals: true });
  const from = values.from ?? positionals[0];
  const to = values.to ?? positionals[values.from ? 0 : 1];
  return from && to ? { from, to } : null;
}

async function main(): Promise<number> {
  let given: ReturnType<typeof urls>;
  try {
    given = urls();
  } catch (error) {
    console.error(`${redactPasswords((error as Error).message)}\n${USAGE}`);
    return 1;
  }
  if (!given) {
    console.error(USAGE);
    return 1;
  }
  console.log(`Copying ${redactPasswords(given.from)} into ${redactPasswords(given.to)}`);
  try {
    const report = await copySqliteToPostgres(given.from, given.to, { progress: (message) => console.log(message) });
    console.log(countsTable(report));
    if (!report.matches) {
      console.error('The counts differ (was the bot still running on the SQLite file?), so nothing was kept in the PostgreSQL database. Stop the bot and run the copy again.');
      return 1;
    }
    console.log('Every table has as many rows in PostgreSQL as in SQLite. Set DATABASE_URL to the PostgreSQL URL and start the bot.');
    return 0;
  } catch (error) {
    const reason = redactPasswords(error instanceof CopyRefused ? error.message : `the copy failed: ${(error as Error).message}`);
    console.error(`${reason}\nNothing was kept in the PostgreSQL database (the copy is one transaction); run the copy again once this is mended.`);
    return 1;
  }
}

process.exitCode = await main();
