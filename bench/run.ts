/**
 * `npm run bench`: the figures of issue 7 in one table, each next to its floor measured in the same run — our
 * bot against a bare discord.js bot replying with a static embed, the engine against raw seeded draws — with the
 * goal and whether it was met. Prints the table (Markdown, as in docs/performance.md), writes every figure to
 * bench/results/latest.json, asserts nothing. BENCH_QUICK=1 runs smaller counts (for trying the script).
 * `npm run bench -- --only cold,contest,fair` runs only those rows (cold start and RSS when ready; contest steps
 * against /roll challenge; another player's roll during a flood of imports) and writes bench/results/only.json;
 * `npm run bench -- fair` is `--only fair`. `--only large`: /log, /roll replay and autocomplete against 1M rolls and
 * 100k sheets on SQLite and PostgreSQL (bench/large-database.ts). `npm run bench -- scale [name]`: the figures of a bot
 * in many servers (bench/scale.ts), and nothing else.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closedLoop, crowdBurst, DEADLINE_MS, sequential, startBare, startOurs, type CrowdFigures, type Target } from './challenge-latency.js';
import { contestThroughput, prepareContests, STEPS_PER_CONTEST, type ContestFigures } from './contest-throughput.js';
import { engineThroughput } from './engine-throughput.js';
import { fairTurns, fairTurnsDetails, fairTurnsRows, sheetFlood, summarizeFairTurns, tableFlood, type FairTurnsSummary } from './fair-turns.js';
import { coldStart, memoryAfterSheets, type BotKind, type ColdStart } from './processes.js';
import { LARGE_ROLLS, LARGE_SHEETS, largeDatabase, type LargeDatabaseFigures } from './large-database.js';
import { NOT_INSTALLED, shardThroughput, startBenchPostgres, startOursOnPostgres, type BenchPostgres, type ShardThroughput } from './postgres.js';
import { runScaleBench } from './scale.js';
import { median, round, roundSummary, summarize, type Summary } from './stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const PARTS = ['cold', 'contest', 'fair', 'large'] as const;
type Part = (typeof PARTS)[number];
/** The parts of `--only a,b` (or the older `fair`); null → the whole run. */
function onlyParts(args: string[]): Part[] | null {
  const at = args.indexOf('--only');
  const named = at >= 0 ? (args[at + 1] ?? '').split(',').filter(Boolean) : args.includes('fair') ? ['fair'] : null;
  if (named === null) return null;
  const unknown = named.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0 || named.length === 0) throw new Error(`--only takes some of ${PARTS.join(', ')} (comma-separated), not "${named.join(',')}"`);
  return named as Part[];
}
const ONLY = onlyParts(process.argv.slice(2));
const SETTLE_MS = 2;
const WARM_UP = QUICK ? 30 : 100;
const BLOCKS = QUICK ? 2 : 16;
const BLOCK_SIZE = 100;
const THROUGHPUT_COUNT = QUICK ? 300 : 2000;
const CROWD_PER_PLAYER = 20; // × 50 players = 1,000 interactions
const CROWD_ROUNDS = QUICK ? 1 : 2;
const CONTESTS = QUICK ? 10 : 40;
const COLD_STARTS = QUICK ? 1 : 3;
const SHEETS = QUICK ? 1000 : 10_000;
const ENGINE_MS = 1000;
/** Blocks of rolls beside a flood, alternately without and with it (ABBA): half of them during the flood. */
const FAIR_BLOCKS = QUICK ? 2 : 8;
const FAIR_PER_BLOCK = QUICK ? 20 : 50;
const FAIR_HEAVY_ALONE = QUICK ? 5 : 40;
const GOALS = { p50: 1.5, p99: 2, throughput: 0.5, rssMb: 200, coldStart: 1.5, contestStep: 1.5, contestStepP99: 3 };

const fixed = (value: number, digits = 2): string => value.toFixed(digits);
const thousands = (value: number): string => Math.round(value).toLocaleString('en-US').replace(/,/g, ' ');
const mb = (kb: number | null): string => (kb === null ? 'n/a' : `${fixed(kb / 1024, 0)} MB`);
const met = (ok: boolean): string => (ok ? 'yes' : '**no**');

/** Runs `measure` on each target in turn, ABBA order, so a slow spell of the machine hits both alike. */
async function alternate<T>(rounds: number, targets: [Target, Target], measure: (target: Target) => Promise<T>): Promise<Map<Target, T[]>> {
  const results = new Map<Target, T[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < rounds; round++) {
    for (const target of round % 2 === 0 ? targets : [targets[1], targets[0]]) results.get(target)!.push(await measure(target));
  }
  return results;
}

function crowdSummary(rounds: CrowdFigures[]) {
  const replyMs = rounds.flatMap((round) => round.replyMs);
  const finalMs = rounds.flatMap((round) => round.finalMs);
  return {
    deferred: rounds.reduce((sum, round) => sum + round.deferred, 0),
    final: summarize(finalMs),
    sent: rounds.reduce((sum, round) => sum + round.sent, 0),
    answered: rounds.reduce((sum, round) => sum + round.answered, 0),
    late: rounds.reduce((sum, round) => sum + round.late, 0),
    reply: summarize(replyMs),
    allAnsweredMs: median(rounds.map((round) => round.allAnsweredMs)),
  };
}

/** Another player's roll during each flood of imports, against the same with no flood. */
async function measureFairTurns(ours: Target): Promise<FairTurnsSummary[]> {
  const summaries: FairTurnsSummary[] = [];
  for (const flood of [sheetFlood(), tableFlood()]) {
    console.log(`fair turns: mike's /roll challenge beside ${flood.label} kept in flight by one player (${FAIR_BLOCKS} blocks of ${FAIR_PER_BLOCK}, half during the flood)`);
    const figures = await fairTurns(ours, flood, { blocks: FAIR_BLOCKS, perBlock: FAIR_PER_BLOCK, heavyCount: FAIR_HEAVY_ALONE });
    summaries.push(summarizeFairTurns(flood, figures));
  }
  return summaries;
}

/**
 * Cold starts of each bot as a new process, ABBA. One untimed start of each first: it bundles what changed since the
 * last start (src/start.mjs, the bare bot's bundle) and leaves both in the disk cache, as on a machine that runs it.
 */
async function measureColdStarts(): Promise<Map<BotKind, ColdStart[]>> {
  console.log(`cold start: ${COLD_STARTS} × each bot as a new process (as npm start runs it, both bundled ahead of time), ours on a new database it migrates; one untimed start each first`);
  await coldStart('ours');
  await coldStart('bare');
  const starts = new Map<BotKind, ColdStart[]>([
    ['ours', []],
    ['bare', []],
  ]);
  for (let round = 0; round < COLD_STARTS; round++) {
    for (const kind of (round % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours']) as BotKind[]) starts.get(kind)!.push(await coldStart(kind));
  }
  return starts;
}

function coldStartRows(starts: Map<BotKind, ColdStart[]>): string[][] {
  const firstAnswer = (kind: BotKind) => median(starts.get(kind)!.map((start) => start.firstAnswerMs));
  const readyRss = (kind: BotKind) => median(starts.get(kind)!.map((start) => start.rssKb ?? Number.NaN));
  const ratio = firstAnswer('ours') / firstAnswer('bare');
  return [
    ['Cold start → first answer (ours: new database, migrations)', `${fixed(firstAnswer('ours'), 0)} ms`, `${fixed(firstAnswer('bare'), 0)} ms`, `${fixed(ratio)}×`, `≤ ${GOALS.coldStart}×`, met(ratio <= GOALS.coldStart)],
    ['RSS when ready', mb(readyRss('ours')), mb(readyRss('bare')), `${fixed(readyRss('ours') / readyRss('bare'))}×`, '–', '–'],
  ];
}

const coldStartJson = (starts: Map<BotKind, ColdStart[]>) =>
  Object.fromEntries([...starts].map(([kind, runs]) => [kind, runs.map((run) => ({ readyMs: round(run.readyMs), firstAnswerMs: round(run.firstAnswerMs), rssKb: run.rssKb }))]));

async function measureContests(ours: Target): Promise<ContestFigures> {
  console.log(`contests: ${CONTESTS} whole contests (${STEPS_PER_CONTEST} interactions each), then as many /roll challenge`);
  await prepareContests(ours);
  return contestThroughput(ours, CONTESTS);
}

function contestRows(contests: ContestFigures): string[][] {
  const steps = summarize(contests.stepMs);
  const rolls = summarize(contests.rollMs);
  const perContest = contests.interactionsPerSecond.rolls / STEPS_PER_CONTEST;
  return [
    [`Whole contests (${STEPS_PER_CONTEST} interactions each, one after another)`, `${fixed(contests.contestsPerSecond, 1)}/s`, `${fixed(perContest, 1)}/s as rolls`, `${fixed(contests.contestsPerSecond / perContest)}×`, '–', '–'],
    ['Contest step, command → reply, p50 (floor: /roll challenge in the same run)', `${fixed(steps.median)} ms`, `${fixed(rolls.median)} ms`, `${fixed(steps.median / rolls.median)}×`, `≤ ${GOALS.contestStep}×`, met(steps.median / rolls.median <= GOALS.contestStep)],
    ['Contest step, command → reply, p99 (floor: /roll challenge in the same run)', `${fixed(steps.p99)} ms`, `${fixed(rolls.p99)} ms`, `${fixed(steps.p99 / rolls.p99)}×`, `≤ ${GOALS.contestStepP99}×`, met(steps.p99 / rolls.p99 <= GOALS.contestStepP99)],
  ];
}

const contestJson = (contests: ContestFigures) => ({
  count: contests.contests,
  contestsPerSecond: round(contests.contestsPerSecond),
  interactionsPerSecond: { contests: round(contests.interactionsPerSecond.contests), rolls: round(contests.interactionsPerSecond.rolls) },
  stepMs: roundSummary(summarize(contests.stepMs)),
  rollMs: roundSummary(summarize(contests.rollMs)),
});

const TABLE_HEADER = ['Figure', 'Tac Talk bot', 'Floor (bare bot / raw draws)', 'Ratio', 'Goal', 'Met'];

function printTable(rows: string[][]): void {
  console.log('');
  console.log(`| ${TABLE_HEADER.join(' | ')} |`);
  console.log(`|${TABLE_HEADER.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log('');
}

function writeResults(name: string, results: object): void {
  const folder = fileURLToPath(new URL('./results/', import.meta.url));
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, name);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
}

const fairTurnsJson = (summaries: FairTurnsSummary[]) =>
  summaries.map((summary) => ({
    ...summary,
    alone: roundSummary(summary.alone),
    during: roundSummary(summary.during),
    heavy: roundSummary(summary.heavy),
    bound: { p50: round(summary.bound.p50), p95: round(summary.bound.p95) },
    floodPerSecond: round(summary.floodPerSecond, 1),
  }));

/** Reads against 1M rolls and 100k sheets (bench/large-database.ts), on SQLite and, when it is installed, PostgreSQL. */
async function measureLarge(postgres: BenchPostgres | null): Promise<LargeDatabaseFigures[]> {
  const figures: LargeDatabaseFigures[] = [];
  for (const engine of postgres ? (['SQLite', 'PostgreSQL'] as const) : (['SQLite'] as const)) {
    console.log(`large database on ${engine}: ${LARGE_ROLLS.toLocaleString('en')} rolls and ${LARGE_SHEETS.toLocaleString('en')} sheets, then /log user:X, /roll replay, autocomplete`);
    const target = engine === 'PostgreSQL' ? await startOursOnPostgres(postgres!) : await startOurs();
    try {
      figures.push(await largeDatabase(target));
    } finally {
      await target.stop();
    }
  }
  return figures;
}

function largeRows(figures: LargeDatabaseFigures[]): string[][] {
  return figures.flatMap((figure) =>
    (
      [
        ['/log user:X, a member with 100,000 rolls', figure.logMany],
        ['/log user:X, a member with 20 rolls', figure.logFew],
        ['/log, the whole server (400,000 rolls)', figure.logServer],
        ['/roll replay of a random roll', figure.replay],
        ['skill autocomplete, a sheet not yet cached', figure.autocomplete],
      ] as const
    ).map(([what, summary]) => [`${what}, on ${figure.engine} with 1M rolls and 100k sheets, p50 / p99`, `${fixed(summary.median)} / ${fixed(summary.p99)} ms`, '–', '–', '–', '–']),
  );
}

const largeDetails = (figures: LargeDatabaseFigures[]): string[] =>
  figures.map((figure) => `large database on ${figure.engine}: made in ${fixed(figure.generateSeconds, 1)} s${figure.problems.length > 0 ? `; ${figure.problems.length} problems, first: ${figure.problems[0]}` : ''}`);

const largeJson = (figures: LargeDatabaseFigures[]) =>
  figures.map((figure) => ({ ...figure, logMany: roundSummary(figure.logMany), logFew: roundSummary(figure.logFew), logServer: roundSummary(figure.logServer), replay: roundSummary(figure.replay), autocomplete: roundSummary(figure.autocomplete), problems: figure.problems.length }));

/** `npm run bench -- --only …`: only those parts' rows; our bot starts in this process for contests and fair turns. */
async function onlySome(parts: Part[]): Promise<void> {
  const cpus = os.cpus();
  console.log(`Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${os.platform()} ${os.release()}${QUICK ? ' (BENCH_QUICK)' : ''}`);
  const rows: string[][] = [];
  const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: cpus.length, quick: QUICK, goals: GOALS };
  if (parts.includes('cold')) {
    const starts = await measureColdStarts();
    rows.push(...coldStartRows(starts));
    results.coldStart = coldStartJson(starts);
  }
  const details: string[] = [];
  if (parts.includes('contest') || parts.includes('fair')) {
    console.log('starting our bot (a temporary SQLite file, 51 players with sheets), in this process…');
    const ours = await startOurs();
    try {
      console.log(`warm-up: ${WARM_UP} /roll challenge`);
      await sequential(ours, WARM_UP);
      ours.problems.length = 0;
      if (parts.includes('contest')) {
        const contests = await measureContests(ours);
        rows.push(...contestRows(contests));
        results.contests = contestJson(contests);
      }
      if (parts.includes('fair')) {
        const summaries = await measureFairTurns(ours);
        rows.push(...summaries.flatMap(fairTurnsRows));
        details.push(...summaries.map(fairTurnsDetails));
        results.fairTurns = fairTurnsJson(summaries);
      }
      if (ours.problems.length > 0) details.push(`warning: ${ours.problems.length} interactions failed or were left out, first: ${ours.problems[0]}`);
      if (ours.rateLimited > 0) details.push(`warning: @discordjs/rest rate-limited ${ours.rateLimited} requests`);
      results.problems = ours.problems.length;
    } finally {
      await ours.stop();
    }
  }
  if (parts.includes('large')) {
    const postgres = await startBenchPostgres();
    try {
      const large = await measureLarge(postgres);
      rows.push(...largeRows(large));
      details.push(...largeDetails(large));
      results.largeDatabase = largeJson(large);
    } finally {
      await postgres?.stop();
    }
  }
  printTable(rows);
  for (const line of details) console.log(line.startsWith('warning:') ? line : `details: ${line}`);
  writeResults('only.json', results);
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(`Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${os.platform()} ${os.release()}${QUICK ? ' (BENCH_QUICK)' : ''}`);
  const started = performance.now();

  const targets: Target[] = [];
  let postgres: BenchPostgres | null = null;
  try {
    console.log('starting our bot (a temporary SQLite file, 51 players with sheets) and a bare discord.js bot, in this process…');
    const ours = await startOurs();
    targets.push(ours);
    const bare = await startBare(SETTLE_MS);
    targets.push(bare);
    const pair: [Target, Target] = [ours, bare];

    console.log(`warm-up: ${WARM_UP} /roll challenge each`);
    await sequential(ours, WARM_UP);
    await sequential(bare, WARM_UP);
    ours.problems.length = 0; // set-up hiccups in the warm-up do not count
    bare.problems.length = 0;

    console.log(`latency: ${BLOCKS} blocks of ${BLOCK_SIZE} sequential /roll challenge each, alternating`);
    const latency = await alternate(BLOCKS, pair, (target) => sequential(target, BLOCK_SIZE));
    const oursLatency = summarize(latency.get(ours)!.flat());
    const bareLatency = summarize(latency.get(bare)!.flat());

    // The same bot, sheets and rolls on PostgreSQL (a server of this run's own), alternating with the SQLite one.
    postgres = await startBenchPostgres();
    let onPostgres: { sqlite: Summary; postgres: Summary; problems: number } | null = null;
    if (postgres) {
      console.log(`PostgreSQL: our bot on a new database of a throwaway server; ${WARM_UP} warm-up, then ${BLOCKS} blocks of ${BLOCK_SIZE} sequential /roll challenge, alternating with the SQLite one`);
      const oursPostgres = await startOursOnPostgres(postgres);
      targets.push(oursPostgres);
      await sequential(oursPostgres, WARM_UP);
      oursPostgres.problems.length = 0;
      const compared = await alternate(BLOCKS, [ours, oursPostgres], (target) => sequential(target, BLOCK_SIZE));
      onPostgres = { sqlite: summarize(compared.get(ours)!.flat()), postgres: summarize(compared.get(oursPostgres)!.flat()), problems: oursPostgres.problems.length };
      if (oursPostgres.problems.length > 0) console.log(`warning: PostgreSQL: ${oursPostgres.problems.length} interactions failed or were left out, first: ${oursPostgres.problems[0]}`);
    } else {
      console.log(`PostgreSQL: ${NOT_INSTALLED}; its rows are left empty (apt-get install postgresql)`);
    }

    console.log(`throughput: ${THROUGHPUT_COUNT} /roll challenge from 50 players, one in flight each, twice each, alternating`);
    const throughput = await alternate(2, pair, (target) => closedLoop(target, THROUGHPUT_COUNT));
    const oursThroughput = median(throughput.get(ours)!);
    const bareThroughput = median(throughput.get(bare)!);

    console.log(`crowd: ${CROWD_ROUNDS} × 1,000 /roll challenge from 50 players dispatched at once, each`);
    const crowds = await alternate(CROWD_ROUNDS, pair, (target) => crowdBurst(target, CROWD_PER_PLAYER));
    const oursCrowd = crowdSummary(crowds.get(ours)!);
    const bareCrowd = crowdSummary(crowds.get(bare)!);

    const contests = await measureContests(ours);
    const steps = summarize(contests.stepMs);

    const fair = await measureFairTurns(ours);

    for (const target of targets.splice(0)) await target.stop();

    // Reads against a large database, then shard processes on PostgreSQL, with nothing else of the run's left running.
    const large = await measureLarge(postgres);
    const sharded: ShardThroughput[] = [];
    if (postgres) {
      for (const shards of [1, 2]) {
        console.log(`PostgreSQL: ${THROUGHPUT_COUNT} /roll challenge from 50 players in 2 servers, one in flight each, on ${shards} shard process${shards === 1 ? '' : 'es'} (SHARD_COUNT=${shards} npm start), twice`);
        sharded.push(await shardThroughput(postgres, shards, THROUGHPUT_COUNT, 2, SETTLE_MS));
        for (const problem of sharded.at(-1)!.problems.slice(0, 1)) console.log(`warning: ${sharded.at(-1)!.problems.length} problems with ${shards} shard processes, first: ${problem}`);
      }
      await postgres.stop();
      postgres = null;
    }
    const shardRate = (shards: number) => median(sharded.find((run) => run.shards === shards)!.perSecond);

    const starts = await measureColdStarts();

    console.log(`memory: ${thousands(SHEETS)} sheets, one /roll challenge from each owner, in a process of its own`);
    const memory = await memoryAfterSheets(SHEETS);

    console.log(`engine: ~${ENGINE_MS} ms per figure`);
    const engine = engineThroughput(ENGINE_MS);

    const ratio = {
      p50: oursLatency.median / bareLatency.median,
      p99: oursLatency.p99 / bareLatency.p99,
      throughput: oursThroughput / bareThroughput,
    };
    const rows: string[][] = [
      ['/roll challenge, command → reply, p50', `${fixed(oursLatency.median)} ms`, `${fixed(bareLatency.median)} ms`, `${fixed(ratio.p50)}×`, `≤ ${GOALS.p50}×`, met(ratio.p50 <= GOALS.p50)],
      ['/roll challenge, command → reply, p99', `${fixed(oursLatency.p99)} ms`, `${fixed(bareLatency.p99)} ms`, `${fixed(ratio.p99)}×`, `≤ ${GOALS.p99}×`, met(ratio.p99 <= GOALS.p99)],
      ['/roll challenge throughput (50 players, one in flight each)', `${fixed(oursThroughput, 0)}/s`, `${fixed(bareThroughput, 0)}/s`, `${fixed(ratio.throughput)}×`, `≥ ${GOALS.throughput}×`, met(ratio.throughput >= GOALS.throughput)],
      ...contestRows(contests),
      [`Burst of 1,000 from 50 players: answered`, `${oursCrowd.answered}/${oursCrowd.sent}`, `${bareCrowd.answered}/${bareCrowd.sent}`, '–', 'all', met(oursCrowd.answered === oursCrowd.sent)],
      [`Burst of 1,000: late (> ${DEADLINE_MS / 1000} s)`, `${oursCrowd.late}`, `${bareCrowd.late}`, '–', '0', met(oursCrowd.late === 0)],
      ['Burst of 1,000: p99 command → first answer', `${fixed(oursCrowd.reply.p99, 0)} ms`, `${fixed(bareCrowd.reply.p99, 0)} ms`, `${fixed(oursCrowd.reply.p99 / bareCrowd.reply.p99)}×`, '–', '–'],
      ['Burst of 1,000: p99 command → the roll shown', `${fixed(oursCrowd.final.p99, 0)} ms`, `${fixed(bareCrowd.final.p99, 0)} ms`, `${fixed(oursCrowd.final.p99 / bareCrowd.final.p99)}×`, '–', '–'],
      ...coldStartRows(starts),
      [`RSS after loading ${thousands(SHEETS)} sheets`, mb(memory.loadedRssKb), '–', '–', `< ${GOALS.rssMb} MB`, met(memory.loadedRssKb !== null && memory.loadedRssKb / 1024 < GOALS.rssMb)],
      ['Engine: challenge rolls (new seed each) vs raw seeded draws', `${thousands(engine.newSeedPerRoll)}/s`, `${thousands(engine.rawDraws)}/s`, `${fixed(engine.newSeedPerRoll / engine.rawDraws, 3)}×`, '–', '–'],
      ...fair.flatMap(fairTurnsRows),
      ...(['median', 'p99'] as const).map((key) => {
        const label = `/roll challenge on PostgreSQL, command → reply, ${key === 'median' ? 'p50' : 'p99'} (floor: the same bot on SQLite)`;
        if (!onPostgres) return [label, NOT_INSTALLED, NOT_INSTALLED, '–', '–', '–'];
        return [label, `${fixed(onPostgres.postgres[key])} ms`, `${fixed(onPostgres.sqlite[key])} ms`, `${fixed(onPostgres.postgres[key] / onPostgres.sqlite[key])}×`, '–', '–'];
      }),
      sharded.length === 0
        ? ['/roll challenge throughput on PostgreSQL, 1 shard process (50 players, one in flight each)', NOT_INSTALLED, '–', '–', '–', '–']
        : ['/roll challenge throughput on PostgreSQL, 1 shard process (50 players, one in flight each; floor: in-process on SQLite)', `${fixed(shardRate(1), 0)}/s`, `${fixed(oursThroughput, 0)}/s`, `${fixed(shardRate(1) / oursThroughput)}×`, '–', '–'],
      sharded.length === 0
        ? ['/roll challenge throughput on PostgreSQL, 2 shard processes', NOT_INSTALLED, '–', '–', '–', '–']
        : ['/roll challenge throughput on PostgreSQL, 2 shard processes (floor: 1 shard process)', `${fixed(shardRate(2), 0)}/s`, `${fixed(shardRate(1), 0)}/s`, `${fixed(shardRate(2) / shardRate(1))}×`, '–', '–'],
      ...largeRows(large),
    ];
    printTable(rows);
    console.log(
      `details: latency n=${oursLatency.n} each, ours p95 ${fixed(oursLatency.p95)} ms / bare ${fixed(bareLatency.p95)} ms; ` +
        `contest step median ${fixed(steps.median)} ms, p99 ${fixed(steps.p99)} ms; ` +
        `burst of 1,000 all answered after ${fixed(oursCrowd.allAnsweredMs, 0)} ms (bare ${fixed(bareCrowd.allAnsweredMs, 0)} ms), ${oursCrowd.deferred} of ours acknowledged first; ` +
        `RSS idle before the sheets ${mb(memory.idleRssKb)}, ${fixed(memory.rollsPerSecond, 0)} rolls/s while loading them; ` +
        `engine ${thousands(engine.seededRngPerRoll)}/s seeding only, ${thousands(engine.oneRngReused)}/s with one generator`,
    );
    for (const target of [ours, bare]) {
      if (target.problems.length > 0) console.log(`warning: ${target.name}: ${target.problems.length} interactions failed or were left out, first: ${target.problems[0]}`);
      if (target.rateLimited > 0) console.log(`warning: ${target.name}: @discordjs/rest rate-limited ${target.rateLimited} requests`);
    }
    for (const summary of fair) console.log(`details: ${fairTurnsDetails(summary)}`);
    for (const line of largeDetails(large)) console.log(`details: ${line}`);
    if (memory.problems.length > 0) console.log(`warning: memory run: ${memory.problems.length} problems, first: ${memory.problems[0]}`);

    const results = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? null,
      platform: `${os.platform()} ${os.release()}`,
      quick: QUICK,
      settings: {
        settleMs: SETTLE_MS,
        warmUp: WARM_UP,
        blocks: BLOCKS,
        blockSize: BLOCK_SIZE,
        throughputCount: THROUGHPUT_COUNT,
        crowdRounds: CROWD_ROUNDS,
        contests: CONTESTS,
        coldStarts: COLD_STARTS,
        sheets: SHEETS,
        engineMs: ENGINE_MS,
        fairTurns: { blocks: FAIR_BLOCKS, perBlock: FAIR_PER_BLOCK, heavyAlone: FAIR_HEAVY_ALONE },
      },
      goals: GOALS,
      latencyMs: { ours: roundSummary(oursLatency), bare: roundSummary(bareLatency) },
      ratio: { p50: round(ratio.p50), p99: round(ratio.p99), throughput: round(ratio.throughput) },
      throughputPerSecond: { ours: throughput.get(ours)!.map((v) => round(v, 1)), bare: throughput.get(bare)!.map((v) => round(v, 1)) },
      crowd: {
        ours: { ...oursCrowd, reply: roundSummary(oursCrowd.reply), final: roundSummary(oursCrowd.final), allAnsweredMs: round(oursCrowd.allAnsweredMs) },
        bare: { ...bareCrowd, reply: roundSummary(bareCrowd.reply), final: roundSummary(bareCrowd.final), allAnsweredMs: round(bareCrowd.allAnsweredMs) },
      },
      contests: contestJson(contests),
      coldStart: coldStartJson(starts),
      memory: { ...memory, rollsPerSecond: round(memory.rollsPerSecond, 1), problems: memory.problems.length },
      engine: Object.fromEntries(Object.entries(engine).map(([key, value]) => [key, Math.round(value)])),
      fairTurns: fairTurnsJson(fair),
      largeDatabase: largeJson(large),
      postgres: onPostgres
        ? {
            latencyMs: { sqlite: roundSummary(onPostgres.sqlite), postgres: roundSummary(onPostgres.postgres) },
            problems: onPostgres.problems,
            shardThroughputPerSecond: Object.fromEntries(sharded.map((run) => [run.shards, run.perSecond.map((value) => round(value, 1))])),
            shardProblems: Object.fromEntries(sharded.map((run) => [run.shards, run.problems.length])),
          }
        : NOT_INSTALLED,
      problems: { ours: ours.problems.length, bare: bare.problems.length },
      rateLimited: { ours: ours.rateLimited, bare: bare.rateLimited },
      totalSeconds: 0,
    };
    results.totalSeconds = round((performance.now() - started) / 1000, 1);
    writeResults('latest.json', results);
    console.log(`${results.totalSeconds} s in all`);
  } finally {
    for (const target of targets) await target.stop().catch((error: unknown) => console.error(`stopping ${target.name}: ${String(error)}`));
    await postgres?.stop().catch((error: unknown) => console.error(`stopping PostgreSQL: ${String(error)}`));
  }
}

const [first, scaleFilter] = process.argv.slice(2);
(first === 'scale' ? runScaleBench(scaleFilter) : ONLY ? onlySome(ONLY) : main()).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
