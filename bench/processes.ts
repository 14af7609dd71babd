/**
 * Figures that need the bot in a process of its own, started the way `npm start` starts it (its entry and Node
 * options, read from package.json; test/helpers/child-bot.ts) against a fake Discord in this process: cold start,
 * and resident memory after loading many sheets. The bare bot is bundled ahead of time the same way (esbuild, the
 * packages left external), so neither pays for compiling TypeScript at start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REST } from 'discord.js';
import { build } from 'esbuild';
import { nameKey } from '../src/engine/names.js';
import { registerCommands } from '../src/deploy.js';
import { FakeDiscord } from '../src/sandbox/fake-discord.js';
import { migrateDatabase } from '../src/store/database.js';
import { openStore } from '../src/store/index.js';
import { ChildBot, fakeDiscordEnv, shardsRunning, type LogLine } from '../test/helpers/child-bot.js';
import { BARE_READY_LINE } from './bare-bot.js';

export type BotKind = 'ours' | 'bare';

export interface StartCommand {
  nodeArgs: string[];
  entry: string;
}

/** `npm start`'s Node options and entry (package.json), so the bot is measured as users run it. */
export function npmStart(): StartCommand {
  const { scripts } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const match = /^node ((?:--\S+ )*)(\S+\.m?js)$/.exec(scripts.start);
  if (!match) throw new Error(`bench/processes.ts expects "start" to be "node <options> <a JavaScript entry>", not "${scripts.start}"`);
  return { nodeArgs: match[1]!.trim().split(/\s+/).filter(Boolean), entry: match[2]! };
}

/** A deployment of our bot in its own process tree, as `npm start` runs it with SHARD_COUNT (spawnShardedBot). */
export interface ShardedStart {
  databaseUrl: string;
  shards: number;
  /** SHARDS_PER_PROCESS; unset, the bot's default (one process per core). */
  shardsPerProcess?: number;
  logLevel?: 'info' | 'debug';
  readyTimeoutMs: number;
  /** Unset: the shard manager's line once every cluster has been ready (shardsRunning). */
  readyWhen?: (line: LogLine) => boolean;
  onLog?: (line: LogLine) => void;
}

/** Our bot's shard manager and its cluster processes, started as `npm start` starts them, against `fake`. */
export function spawnShardedBot(fake: FakeDiscord, start: ShardedStart): Promise<ChildBot> {
  return ChildBot.spawn({
    env: {
      ...fakeDiscordEnv(fake),
      DATABASE_URL: start.databaseUrl,
      SHARD_COUNT: String(start.shards),
      ...(start.shardsPerProcess === undefined ? {} : { SHARDS_PER_PROCESS: String(start.shardsPerProcess) }),
      LOG_LEVEL: start.logLevel ?? 'info',
    },
    readyWhen: start.readyWhen ?? shardsRunning,
    readyTimeoutMs: start.readyTimeoutMs,
    ...(start.onLog ? { onLog: start.onLog } : {}),
    ...npmStart(),
    // JavaScript entries with nothing in front (the loopback guard is TypeScript): the fake's URL is the only API.
    loopbackOnly: false,
  });
}

const BARE_BUNDLE = 'bench/results/bare-bot.mjs';
let bareBundled: Promise<unknown> | undefined;

/** The bare bot as one file, its TypeScript compiled once here (as `npm start` bundles ours before it runs it). */
function bundleBareBot(): Promise<unknown> {
  bareBundled ??= build({
    absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
    entryPoints: ['bench/bare-bot.ts'],
    outfile: BARE_BUNDLE,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return bareBundled;
}

interface Launched {
  fake: FakeDiscord;
  bot: ChildBot;
  /** Spawn → the bot's "ready" log line (ours: after migrations and login). */
  readyMs: number;
  spawnedAt: number;
  close(): Promise<void>;
}

/** A fresh fake Discord with the commands registered, and a fresh database file: nothing carried over. */
async function launch(kind: BotKind, prepare?: (fake: FakeDiscord, databaseUrl: string) => Promise<void>): Promise<Launched> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-bench-process-'));
  const databaseUrl = `file:${path.join(folder, 'bot.db')}`;
  const fake = new FakeDiscord({ settleMs: 2 });
  await fake.start();
  const close = async (bot?: ChildBot): Promise<void> => {
    await bot?.stop();
    await fake.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  };
  try {
    await registerCommands(new REST({ api: fake.restApi }).setToken(fake.token), fake.applicationId, fake.guildId);
    await prepare?.(fake, databaseUrl);
    if (kind === 'bare') await bundleBareBot();
    const spawnedAt = performance.now();
    const bot = await ChildBot.spawn({
      env: { ...fakeDiscordEnv(fake), DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' },
      // The bare bot is plain discord.js with Node's defaults: the floor, untuned.
      ...(kind === 'bare' ? { entry: BARE_BUNDLE, readyWhen: (line) => line.msg === BARE_READY_LINE } : npmStart()),
      // JavaScript entries with nothing in front (the loopback guard is TypeScript): the fake's URL is the only API.
      loopbackOnly: false,
      readyTimeoutMs: 60_000,
    });
    return { fake, bot, readyMs: performance.now() - spawnedAt, spawnedAt, close: () => close(bot) };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface ColdStart {
  /** Spawn → ready log line. */
  readyMs: number;
  /** Spawn → the first /roll challenge answered (sent as soon as it was ready). */
  firstAnswerMs: number;
  /** Resident memory once ready (kB). */
  rssKb: number | null;
}

/** One cold start: a new process, a new (empty) database file that it must migrate, a first command. */
export async function coldStart(kind: BotKind): Promise<ColdStart> {
  const launched = await launch(kind);
  try {
    const sent = performance.now();
    const result = await launched.fake.interact({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90, level: 40 } });
    if (result.firstResponseMs === undefined) throw new Error(`${kind}: the first command got no answer: ${JSON.stringify(result)}`);
    const problems = launched.bot.problems();
    if (problems.length > 0) throw new Error(`${kind}: ${problems[0]}`);
    return { readyMs: launched.readyMs, firstAnswerMs: sent - launched.spawnedAt + result.firstResponseMs, rssKb: launched.bot.rssKb() };
  } finally {
    await launched.close();
  }
}

export interface SheetMemory {
  sheets: number;
  /** Resident memory once ready, before any sheet was read (kB). */
  idleRssKb: number | null;
  /** After every sheet was read by a /roll challenge of its owner (kB). */
  loadedRssKb: number | null;
  rollsPerSecond: number;
  problems: string[];
}

/**
 * `sheets` players, each with a sheet of 10 skills and 3 archetypes written straight into the database, then one
 * /roll challenge from each (50 in flight at a time), so the bot has read every sheet; its RSS before and after.
 */
export async function memoryAfterSheets(sheets: number): Promise<SheetMemory> {
  const players = Array.from({ length: sheets }, (_, i) => `operator${i}`);
  const launched = await launch('ours', async (fake, databaseUrl) => {
    await migrateDatabase(databaseUrl);
    const store = await openStore(databaseUrl);
    try {
      const skills = ['Climbing', 'CQC', 'Stealth', 'Medicine', 'Driving', 'Hacking', 'Negotiation', 'Perception', 'Shotgun Handling', 'Tracking'];
      const archetypes = ['Acuity', 'Grit', 'Finesse'];
      for (let first = 0; first < sheets; first += 1000) {
        const batch = players.slice(first, first + 1000).map((player, i) => ({ player, id: first + i + 1 }));
        await store.db.$transaction([
          store.db.operator.createMany({
            data: batch.map(({ player, id }) => ({ id, guildId: fake.guildId, ownerId: fake.user(player).id, name: `Sheet ${player}`, nameKey: nameKey(`Sheet ${player}`), active: true })),
          }),
          store.db.skill.createMany({
            data: batch.flatMap(({ id }) => skills.map((name, k) => ({ operatorId: id, name, nameKey: nameKey(name), level: 20 + k }))),
          }),
          store.db.archetype.createMany({
            data: batch.flatMap(({ id }) => archetypes.map((name, k) => ({ operatorId: id, name, nameKey: nameKey(name), modifier: 5 * (k + 1) }))),
          }),
        ]);
      }
    } finally {
      await store.close();
    }
  });
  try {
    const idleRssKb = launched.bot.rssKb();
    const problems: string[] = [];
    let next = 0;
    const started = performance.now();
    const worker = async (): Promise<void> => {
      while (next < players.length) {
        const user = players[next++]!;
        const result = await launched.fake.interact({ user, command: 'roll challenge', options: { skill: 'Climbing', cl: 90, archetypes: 'Acuity' } });
        // Under load the bot may acknowledge first and answer in an edit: any response with the roll counts.
        const text = JSON.stringify(result.responses.map((response) => response.embeds));
        if (result.errors.length > 0 || !text.includes('Climbing vs CL 90')) problems.push(`${user}: ${result.errors.join('; ') || text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const rollsPerSecond = (players.length / (performance.now() - started)) * 1000;
    problems.push(...launched.bot.problems());
    return { sheets, idleRssKb, loadedRssKb: launched.bot.rssKb(), rollsPerSecond, problems };
  } finally {
    await launched.close();
  }
}
