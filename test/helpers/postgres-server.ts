// A PostgreSQL server of the test run's own: Debian's binaries (apt-get install postgresql; .ci/run installs them),
// a new cluster in a temporary folder, on a free loopback port, with fsync off (a test database need not survive a
// power cut), stopped and deleted when the run ends. Nothing is left running and no cluster of the machine is
// touched. TEST_POSTGRES_URL (a superuser's URL) uses a server that is already running instead.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface PostgresServer {
  /** A superuser's URL to the `postgres` database (for CREATE DATABASE). */
  adminUrl: string;
  /** The URL of database `name` on this server. */
  urlOf(name: string): string;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder, or null. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * Waits for the server's own word that it accepts connections (its log line), then for one connection to succeed:
 * no fixed pause. Fails at once if the server stops; the deadline is only a hang guard.
 */
async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const ready = new Promise<void>((resolve, reject) => {
    const look = (): void => {
      if (/ready to accept connections/.test(output())) resolve();
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', () => reject(new Error(`PostgreSQL stopped at start-up:\n${output()}`)));
    look();
  });
  ready.catch(() => undefined); // raced below; a stop after the hang guard fired is not news
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`PostgreSQL did not say it accepts connections within 60 s:\n${output()}`)), 60_000);
  });
  try {
    await Promise.race([ready, hang]);
  } finally {
    clearTimeout(timer);
  }
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const given = process.env.TEST_POSTGRES_URL?.trim();
  if (given) return { adminUrl: given, urlOf: (name) => withDatabase(given, name), stop: async () => undefined };
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql (or set TEST_POSTGRES_URL to a running server a superuser can use)');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-postgres-'));
  const data = path.join(folder, 'data');
  // PostgreSQL refuses to run as root: as root, the cluster belongs to Debian's postgres user.
  const owner: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    owner.uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    owner.gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    fs.chownSync(folder, owner.uid, owner.gid);
  }
  execFileSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'tactalk', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'], { stdio: 'pipe', cwd: folder, ...owner });
  const port = await freePort();
  const args = ['-D', data, '-p', String(port), '-k', folder, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'];
  const child = spawn(path.join(bin, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: folder, ...owner });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const adminUrl = `postgresql://tactalk@127.0.0.1:${port}/postgres`;
  await waitUntilAnswering(adminUrl, child, () => output);
  return {
    adminUrl,
    urlOf: (name) => withDatabase(adminUrl, name),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // SIGINT: PostgreSQL's fast shutdown (ends the sessions, no waiting for clients).
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Runs statements on the server's `postgres` database as its superuser (CREATE DATABASE cannot run in a transaction). */
export async function adminQuery(adminUrl: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
