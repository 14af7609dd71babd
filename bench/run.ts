/**
 * `npm run bench`: /roll challenge latency of our bot against a bare discord.js bot measured in the same run,
 * a burst of concurrent commands, and the engine's throughput. Prints figures and writes
 * bench/results/latest.json; asserts nothing. See bench/README.md for how to read them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { burst, sequential, startBare, startOurs, type Target } from './challenge-latency.js';
import { contestThroughput, prepareContests, STEPS_PER_CONTEST } from './contest-throughput.js';
import { engineThroughput } from './engine-throughput.js';
import { median, round, roundSummary, summarize } from './stats.js';

const SETTLE_MS = 2;
const WARM_UP = 50;
const BLOCKS = 6;
const BLOCK_SIZE = 50;
const BURST_SIZE = 100;
const BURST_ROUNDS = 3;
const ENGINE_MS = 1000;
const CONTESTS = 40;

const fixed = (value: number, digits = 2): string => value.toFixed(digits);
const thousands = (value: number): string => Math.round(value).toLocaleString('en-US').replace(/,/g, ' ');
const pad = (text: string, width: number): string => text.padStart(width);

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(`Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${os.platform()} ${os.release()}`);
  const started = performance.now();

  const targets: Target[] = [];
  try {
    console.log('starting our bot (migrating a temporary SQLite file) and a bare discord.js bot…');
    const ours = await startOurs(SETTLE_MS);
    targets.push(ours);
    const bare = await startBare(SETTLE_MS);
    targets.push(bare);

    console.log(`warm-up: ${WARM_UP} /roll challenge each`);
    await sequential(ours, WARM_UP);
    await sequential(bare, WARM_UP);
    ours.problems.length = 0; // set-up hiccups in the warm-up do not count
    bare.problems.length = 0;

    console.log(`measuring: ${BLOCKS} blocks of ${BLOCK_SIZE} each, alternating (ABBA order)`);
    const times = new Map<Target, number[]>([
      [ours, []],
      [bare, []],
    ]);
    for (let block = 0; block < BLOCKS; block++) {
      const order = block % 2 === 0 ? [ours, bare] : [bare, ours];
      for (const target of order) times.get(target)!.push(...(await sequential(target, BLOCK_SIZE)));
    }

    console.log(`burst: ${BURST_ROUNDS} rounds of ${BURST_SIZE} concurrent each, alternating`);
    const bursts = new Map<Target, number[]>([
      [ours, []],
      [bare, []],
    ]);
    for (let round = 0; round < BURST_ROUNDS; round++) {
      const order = round % 2 === 0 ? [ours, bare] : [bare, ours];
      for (const target of order) bursts.get(target)!.push(await burst(target, BURST_SIZE));
    }

    console.log(`contests: ${CONTESTS} whole contests (${STEPS_PER_CONTEST} interactions each), then as many /roll challenge`);
    await prepareContests(ours);
    const contests = await contestThroughput(ours, CONTESTS);
    const stepSummary = summarize(contests.stepMs);

    for (const target of targets.splice(0)) await target.stop();

    console.log(`engine: ~${ENGINE_MS} ms per figure`);
    const engine = engineThroughput(ENGINE_MS);

    const oursSummary = summarize(times.get(ours)!);
    const bareSummary = summarize(times.get(bare)!);
    const ratio = {
      median: oursSummary.median / bareSummary.median,
      p95: oursSummary.p95 / bareSummary.p95,
      p99: oursSummary.p99 / bareSummary.p99,
    };
    const burstOurs = median(bursts.get(ours)!);
    const burstBare = median(bursts.get(bare)!);

    const w = 9;
    console.log('');
    console.log(`/roll challenge, command → reply (ms), ${BLOCKS * BLOCK_SIZE} sequential after ${WARM_UP} warm-up`);
    console.log(`${''.padEnd(22)}${pad('median', w)}${pad('p95', w)}${pad('p99', w)}`);
    for (const [name, s] of [
      [ours.name, oursSummary],
      [bare.name, bareSummary],
    ] as const) {
      console.log(`${name.padEnd(22)}${pad(fixed(s.median), w)}${pad(fixed(s.p95), w)}${pad(fixed(s.p99), w)}`);
    }
    console.log(`${'ratio (ours / bare)'.padEnd(22)}${pad(`${fixed(ratio.median, 1)}x`, w)}${pad(`${fixed(ratio.p95, 1)}x`, w)}${pad(`${fixed(ratio.p99, 1)}x`, w)}`);
    console.log(
      `burst of ${BURST_SIZE} concurrent (median of ${BURST_ROUNDS}): ours ${fixed(burstOurs, 0)} ms, bare ${fixed(burstBare, 0)} ms (${fixed(burstOurs / burstBare, 1)}x)` +
        `   [ours ${bursts.get(ours)!.map((v) => fixed(v, 0)).join(', ')}; bare ${bursts.get(bare)!.map((v) => fixed(v, 0)).join(', ')}]`,
    );
    console.log(
      `contests: ${fixed(contests.contestsPerSecond, 1)} whole contests/s (${fixed(contests.interactionsPerSecond.contests, 0)} interactions/s); ` +
        `the same ${contests.contests * STEPS_PER_CONTEST} interactions as /roll challenge: ${fixed(contests.interactionsPerSecond.rolls, 0)}/s; ` +
        `a contest step, command → reply: median ${fixed(stepSummary.median)} ms, p99 ${fixed(stepSummary.p99)} ms`,
    );
    console.log(
      `engine: ${thousands(engine.newSeedPerRoll)} challenge rolls/s as the bot rolls (new seed + new seeded generator each); ` +
        `${thousands(engine.seededRngPerRoll)}/s seeding only; ${thousands(engine.oneRngReused)}/s with one generator reused`,
    );
    for (const target of [ours, bare]) {
      if (target.problems.length > 0) {
        console.log(`warning: ${target.name}: ${target.problems.length} interactions left out, first: ${target.problems[0]}`);
      }
      if (target.rateLimited > 0) console.log(`warning: ${target.name}: @discordjs/rest rate-limited ${target.rateLimited} requests`);
    }

    const results = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? null,
      platform: `${os.platform()} ${os.release()}`,
      settings: { settleMs: SETTLE_MS, warmUp: WARM_UP, blocks: BLOCKS, blockSize: BLOCK_SIZE, burstSize: BURST_SIZE, burstRounds: BURST_ROUNDS, engineMs: ENGINE_MS },
      challengeLatencyMs: {
        ours: roundSummary(oursSummary),
        bare: roundSummary(bareSummary),
        ratio: { median: round(ratio.median), p95: round(ratio.p95), p99: round(ratio.p99) },
      },
      burstMs: {
        ours: { median: round(burstOurs), rounds: bursts.get(ours)!.map((v) => round(v)) },
        bare: { median: round(burstBare), rounds: bursts.get(bare)!.map((v) => round(v)) },
        ratio: round(burstOurs / burstBare),
      },
      contests: {
        count: contests.contests,
        contestsPerSecond: round(contests.contestsPerSecond),
        interactionsPerSecond: { contests: round(contests.interactionsPerSecond.contests), rolls: round(contests.interactionsPerSecond.rolls) },
        stepMs: roundSummary(stepSummary),
      },
      engineRollsPerSecond: {
        newSeedPerRoll: Math.round(engine.newSeedPerRoll),
        seededRngPerRoll: Math.round(engine.seededRngPerRoll),
        oneRngReused: Math.round(engine.oneRngReused),
      },
      problems: { ours: ours.problems.length, bare: bare.problems.length },
      rateLimited: { ours: ours.rateLimited, bare: bare.rateLimited },
      totalSeconds: 0,
    };
    results.totalSeconds = round((performance.now() - started) / 1000, 1);
    const folder = fileURLToPath(new URL('./results/', import.meta.url));
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'latest.json');
    fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nwritten to ${path.relative(process.cwd(), file)} (${results.totalSeconds} s in all)`);
  } finally {
    for (const target of targets) await target.stop().catch((error: unknown) => console.error(`stopping ${target.name}: ${String(error)}`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
