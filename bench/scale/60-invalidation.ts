/**
 * What one write costs the read caches of every bot process (issue 26): the time a process spends forgetting what a
 * write changed, the writer's own invalidation and each other process's handling of the announcement, with full
 * caches (20,000 sheets, 2,000 players' lists and 10,000 servers' settings cached) at 1, 2 and 4 processes over
 * PostgreSQL, and with a tenth of that cached at 1 process.
 *
 * The processes are stores in this one, each with its own pool and listener on one database (as
 * test/scale/shared-caches.test.ts runs them): the announcements travel through PostgreSQL as between machines, and
 * the time measured is the handler's own, which is where a process's CPU goes. "By key" is read-cache.ts as it is;
 * "scan" is how it was before (every entry tested against the change), rebuilt here over a copy of the same entries
 * and run on the same announcements, so the two are measured side by side.
 */
import { performance } from 'node:perf_hooks';
import { postgresCacheBus, type CacheBus, type SharedCache } from '../../src/store/cache-bus.js';
import { openDatabase } from '../../src/store/database.js';
import { OperatorStore } from '../../src/store/operators.js';
import { ServerStore, type ServerSettings } from '../../src/store/servers.js';
import type { OperatorSheet } from '../../src/engine/sheet.js';
import { adminQuery } from '../../test/helpers/postgres-server.js';
import { NOT_INSTALLED, startBenchPostgres } from '../postgres.js';
import type { ScaleRow } from './row.js';

const SHEETS = 20_000;
const OWNERS_PER_SERVER = 10;
const SETTINGS = 10_000;
/** Writes of each kind per configuration. */
const WRITES = 150;

type Kind = 'sheet' | 'scope' | 'server';
type Method = 'byKey' | 'scan';
type Role = 'own' | 'heard';

const guildOf = (index: number): string => String(1_000 + Math.floor(index / OWNERS_PER_SERVER));
const ownerOf = (index: number): string => `p${index % OWNERS_PER_SERVER}`;
const scopeKey = (guildId: string, ownerId: string): string => `${guildId}/${ownerId}/`;

/** The old ReadCache's invalidation, a test of every entry, over the same entries as a process's caches hold. */
class ScanningCopy {
  readonly sheets = new Map<string, OperatorSheet | null>();
  readonly lists = new Map<string, OperatorSheet[]>();
  readonly settings = new Map<string, ServerSettings>();

  forget(cache: string, change: unknown): void {
    if (cache === 'servers') {
      scan(this.settings, (key) => key === change);
      return;
    }
    const sheetChange = change as { sheet: number } | { scope: [string, string] };
    if ('sheet' in sheetChange) {
      scan(this.sheets, (_key, sheet) => sheet !== null && sheet.id === sheetChange.sheet);
      scan(this.lists, (_key, sheets) => sheets.some((sheet) => sheet.id === sheetChange.sheet));
      return;
    }
    const [guildId, ownerId] = sheetChange.scope;
    const prefix = scopeKey(guildId, ownerId);
    scan(this.sheets, (key, sheet) => key.startsWith(prefix) || (sheet !== null && sheet.guildId === guildId && sheet.ownerId === ownerId));
    scan(this.lists, (key) => key === prefix);
  }
}
function scan<V>(entries: Map<string, V>, affected: (key: string, value: V) => boolean): void {
  for (const [key, value] of entries) if (affected(key, value)) entries.delete(key);
}

/** One bot process: its cached repositories on its own pool and listener, every forget timed both ways. */
interface BotProcess {
  operators: OperatorStore;
  servers: ServerStore;
  copy: ScanningCopy;
  /** What the stores registered with the bus, so the writer's own invalidation can be timed the same way. */
  joined: Map<string, SharedCache>;
  heard: number;
  close(): Promise<void>;
}

/** Samples in microseconds, by kind of write, method and role; `phase` is the configuration being measured. */
const samples = new Map<string, number[]>();
let phase = '';
const sampleKey = (kind: Kind, method: Method, role: Role) => `${phase}|${kind}|${method}|${role}`;
function record(kind: Kind, method: Method, role: Role, micros: number): void {
  const key = sampleKey(kind, method, role);
  let list = samples.get(key);
  if (!list) samples.set(key, (list = []));
  list.push(micros);
}

function kindOf(cache: string, change: unknown): Kind {
  return cache === 'servers' ? 'server' : 'sheet' in (change as object) ? 'sheet' : 'scope';
}

async function openProcess(url: string): Promise<BotProcess> {
  const opened = await openDatabase(url);
  const bus: CacheBus = await postgresCacheBus(opened.pool!);
  const copy = new ScanningCopy();
  const joined = new Map<string, SharedCache>();
  const bot: BotProcess = {
    operators: undefined as unknown as OperatorStore,
    servers: undefined as unknown as ServerStore,
    copy,
    joined,
    heard: 0,
    close: async () => {
      await bus.close();
      await opened.close();
    },
  };
  const join = bus.join.bind(bus);
  bus.join = (name, cache) => {
    const timed = (change: unknown, role: Role) => {
      const kind = kindOf(name, change);
      let started = performance.now();
      cache.forget(change);
      record(kind, 'byKey', role, (performance.now() - started) * 1_000);
      started = performance.now();
      copy.forget(name, change);
      record(kind, 'scan', role, (performance.now() - started) * 1_000);
    };
    joined.set(name, { forget: (change) => timed(change, 'own'), setCaching: (on) => cache.setCaching(on) });
    join(name, {
      forget: (change) => {
        timed(change, 'heard');
        bot.heard++;
      },
      setCaching: (on) => cache.setCaching(on),
    });
  };
  bot.operators = new OperatorStore(opened.db, bus);
  bot.servers = new ServerStore(opened.db, bus);
  return bot;
}

/** Reads the first `sheets` sheets (by id, and their players' lists) and `settings` servers' settings into `bot`'s caches and its scanning copy. */
async function fill(bot: BotProcess, ids: number[], sheets: number, settings: number): Promise<void> {
  const batch = async <T>(count: number, one: (index: number) => Promise<T>) => {
    for (let start = 0; start < count; start += 50) await Promise.all(Array.from({ length: Math.min(50, count - start) }, (_, offset) => one(start + offset)));
  };
  await batch(sheets, async (index) => {
    const sheet = await bot.operators.get(guildOf(index), ids[index]!);
    bot.copy.sheets.set(`id/${ids[index]}`, sheet);
  });
  // Each player here has one sheet; the lists cache holds a tenth of them (CACHED_LISTS in operators.ts).
  await batch(sheets / 10, async (index) => {
    const owner = { guildId: guildOf(index), ownerId: ownerOf(index) };
    bot.copy.lists.set(scopeKey(owner.guildId, owner.ownerId), await bot.operators.list(owner));
  });
  await batch(settings, async (index) => {
    const guildId = String(1_000 + index);
    bot.copy.settings.set(guildId, await bot.servers.settings(guildId));
  });
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * WRITES writes of each kind through the first process, each to something every process has cached (a sheet's skill,
 * a player's active sheet, a server's settings): before each, the writer's own invalidation is timed (the write's
 * own then finds nothing left to drop); after it, every other process's handling of its announcement.
 */
async function measureWrites(bots: BotProcess[], ids: number[], cachedSheets: number, cachedSettings: number, label: string): Promise<void> {
  phase = label;
  const [writer] = bots as [BotProcess];
  const others = bots.slice(1);
  const announced = async (write: () => Promise<unknown>) => {
    const before = others.map((other) => other.heard);
    await write();
    await waitFor(() => others.every((other, index) => other.heard > before[index]!), 'every process to hear the announcement');
  };
  for (let write = 0; write < WRITES; write++) {
    // Spread over what is cached, each target hit once per kind.
    const index = Math.floor((write * cachedSheets) / WRITES);
    const sheet = { id: ids[index]!, guildId: guildOf(index) };
    writer.joined.get('sheets')!.forget({ sheet: sheet.id });
    await announced(() => writer.operators.setSkill(sheet, 'Climbing', write));
    const owner = { guildId: guildOf(index + 1), ownerId: ownerOf(index + 1) };
    writer.joined.get('sheets')!.forget({ scope: [owner.guildId, owner.ownerId] });
    await announced(() => writer.operators.use(owner, `Sheet ${index + 1}`));
    const guildId = String(1_000 + Math.floor((write * cachedSettings) / WRITES));
    writer.joined.get('servers')!.forget(guildId);
    await announced(() => writer.servers.update(guildId, { contestTimeoutMinutes: 20 + (write % 10) }));
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}
const micros = (value: number) => (value >= 100 ? `${Math.round(value)} µs` : `${value.toFixed(1)} µs`);

export async function measure(): Promise<ScaleRow[]> {
  const postgres = await startBenchPostgres();
  if (!postgres) return [{ row: 'cache invalidation per write', figure: NOT_INSTALLED }];
  const bots: BotProcess[] = [];
  const configurations: Array<{ label: string; bots: number; sheets: number; settings: number }> = [];
  try {
    const url = await postgres.newDatabase();
    await adminQuery(
      url,
      `INSERT INTO "Operator" ("guildId", "ownerId", "name", "nameKey", "system", "active", "notes", "createdAt", "updatedAt")
       SELECT (1000 + g / ${OWNERS_PER_SERVER})::text, 'p' || (g % ${OWNERS_PER_SERVER}), 'Sheet ' || g, 'sheet ' || g, 'tactalk', true, '', now(), now()
       FROM generate_series(0, ${SHEETS - 1}) AS g`,
    );
    const first = await openProcess(url);
    bots.push(first);
    const rows = await first.operators.list({ guildId: guildOf(0), ownerId: ownerOf(0) });
    // The ids follow the series' order: sheet g has id (first id + g).
    const firstId = rows.find((sheet) => sheet.name === 'Sheet 0')!.id;
    const ids = Array.from({ length: SHEETS }, (_, index) => firstId + index);

    const run = async (label: string, sheets: number, settings: number) => {
      configurations.push({ label, bots: bots.length, sheets, settings });
      await measureWrites(bots, ids, sheets, settings, label);
    };
    await fill(first, ids, SHEETS / 10, SETTINGS / 10);
    await run('1 process, 2,000 sheets + 1,000 settings cached', SHEETS / 10, SETTINGS / 10);
    await fill(first, ids, SHEETS, SETTINGS);
    await run('1 process, full caches', SHEETS, SETTINGS);
    for (const count of [2, 4]) {
      while (bots.length < count) {
        const another = await openProcess(url);
        bots.push(another);
        await fill(another, ids, SHEETS, SETTINGS);
      }
      // Every process's caches full again (the last run's writes dropped what they touched).
      for (const bot of bots) await fill(bot, ids, SHEETS, SETTINGS);
      await run(`${count} processes, full caches`, SHEETS, SETTINGS);
    }
  } finally {
    for (const bot of bots) await bot.close();
    await postgres.stop();
  }

  const rows: ScaleRow[] = [];
  for (const configuration of configurations) {
    for (const kind of ['sheet', 'scope', 'server'] as const) {
      const what = { sheet: "a sheet's contents (setSkill)", scope: "a player's sheets (use)", server: "a server's settings" }[kind];
      const figures: Record<string, unknown> = {};
      const parts: string[] = [];
      for (const role of ['own', 'heard'] as const) {
        const byKey = samples.get(`${configuration.label}|${kind}|byKey|${role}`) ?? [];
        const scanned = samples.get(`${configuration.label}|${kind}|scan|${role}`) ?? [];
        if (byKey.length === 0) continue;
        const summary = { samples: byKey.length, byKeyMedianUs: quantile(byKey, 0.5), byKeyP99Us: quantile(byKey, 0.99), scanMedianUs: quantile(scanned, 0.5), scanP99Us: quantile(scanned, 0.99) };
        figures[role] = summary;
        const who = role === 'own' ? 'writer' : `each other process (${configuration.bots - 1})`;
        parts.push(`${who}: by key ${micros(summary.byKeyMedianUs)} (p99 ${micros(summary.byKeyP99Us)}), scan ${micros(summary.scanMedianUs)} (p99 ${micros(summary.scanP99Us)})`);
      }
      rows.push({
        row: `invalidation per write of ${what}, ${configuration.label}`,
        figure: parts.join('; '),
        details: { ...configuration, kind, ...figures },
      });
    }
  }
  return rows;
}
