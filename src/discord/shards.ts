/**
 * The shard manager: with SHARD_COUNT set, `npm start` runs discord-hybrid-sharding's ClusterManager over the bot's own
 * entry point: this machine's shards (SHARD_IDS, default all) in clusters of SHARDS_PER_PROCESS shards, one OS process
 * per cluster, each a discord.js client for its shards with one database pool. This process never logs in to the
 * gateway and never opens the store: it applies pending migrations once, spawns, watches and stops; it is the one
 * IDENTIFY queue of the machine's clusters, respawns a cluster that dies with a capped exponential backoff, and keeps
 * the respawns within Discord's daily session start limit.
 */
import { REST } from '@discordjs/rest';
import { Routes, type RESTGetAPIGatewayBotResult } from 'discord.js';
import { ClusterManager, type Cluster } from 'discord-hybrid-sharding';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Logger } from '../log.js';
import { IDENTIFIED_NOTICE, IDENTIFY_REQUEST } from './client.js';

/** How the sharded sandbox tells its cluster processes the scope of the global command list (a new fake each run). */
export const COMMANDS_SCOPE_ARG = '--commands-scope=';


/** How a dead cluster is respawned: after `firstDelayMs`, doubling on each death in a row up to `maxDelayMs`. */
export interface RespawnPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** A cluster that stayed ready this long before it died starts again from `firstDelayMs`. */
  resetAfterMs: number;
  /** Up to this share of the delay is added at random, so clusters that died together do not come back together. */
  jitter: number;
  /**
   * The share of the daily session start limit respawns leave alone: kept for the operator's own restarts and
   * deploys. A respawn that would eat into it waits for the limit to reset.
   */
  reserve: number;
}

export const DEFAULT_RESPAWN_POLICY: RespawnPolicy = { firstDelayMs: 5_000, maxDelayMs: 300_000, resetAfterMs: 120_000, jitter: 0.2, reserve: 0.1 };

export interface ShardManagerOptions {
  token: string;
  databaseUrl: string;
  log: Logger;
  /** REST base of a Discord-compatible API (a fake Discord); absent → discord.com. */
  restApi?: string;
  /** The shard count of the whole bot, or 'auto' for /gateway/bot's recommendation. */
  count: number | 'auto';
  /** The shards this machine runs; null → all of them. */
  ids: number[] | null;
  /** Shards per process (SHARDS_PER_PROCESS); 'auto' (the default) → this machine's shards over one process per core. */
  shardsPerProcess?: number | 'auto';
  /** The entry point each cluster process runs (default the one this process was started with). */
  entry?: string;
  /** Variables each cluster process gets beyond this process's environment (the sandbox's fake Discord). */
  env?: Record<string, string>;
  /** Arguments after the entry point (the sandbox's command scope, see main.ts). */
  shardArgs?: string[];
  /** Respawn timings and the budget's reserve; DEFAULT_RESPAWN_POLICY where not given (no setting: Discord's rules set them). */
  respawn?: Partial<RespawnPolicy>;
}

export interface ClusterPlan {
  id: number;
  shards: number[];
}

export interface RunningShards {
  count: number;
  ids: number[];
  clusters: ClusterPlan[];
  /** The pid of each shard's process now, by shard id (absent while its cluster is down). */
  pids(): Map<number, number>;
  /** Settles once every cluster has been ready once ("shards running: …" is logged then). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Discord lets a bot start one session per `max_concurrency` bucket (shard_id % max_concurrency) every 5 s. The
 * manager spaces its grants by a little more, and counts from the cluster's word that it sent the IDENTIFY, so
 * that the IPC's and a busy process's delays never bring two IDENTIFYs of a bucket closer than 5 s at Discord.
 */
const IDENTIFY_SPACING_MS = 5_500;
const AFTER_IDENTIFIED_MS = 5_250;
/** How long a cluster process may take to load, open its store and log in, besides its turns in the IDENTIFY queue. */
const BOOT_TIMEOUT_MS = 90_000;
/** How long a cluster process has to stop after SIGTERM before it is killed; main.ts stops a cluster within 4 s. */
const STOP_GRACE_MS = 5_000;

/**
 * The clusters of this machine's shards: ceil(shards / perProcess) processes, shards in order, as even as can be
 * ('auto': one process per core, `os.availableParallelism()`, never more processes than shards).
 */
export function planClusters(ids: number[], perProcess: number | 'auto', cores = os.availableParallelism()): ClusterPlan[] {
  if (ids.length === 0) return [];
  const processes = perProcess === 'auto' ? Math.min(ids.length, Math.max(1, cores)) : Math.ceil(ids.length / perProcess);
  const plans: ClusterPlan[] = [];
  let next = 0;
  for (let id = 0; id < processes; id++) {
    // The first clusters take one more shard when they do not divide evenly: 5 shards in 2 → 3 and 2.
    const size = Math.ceil((ids.length - next) / (processes - id));
    plans.push({ id, shards: ids.slice(next, next + size) });
    next += size;
  }
  return plans;
}

/** A capped exponential backoff with jitter: the wait before respawning after the `deaths`-th death in a row. */
export function respawnDelay(deaths: number, policy: RespawnPolicy, random = Math.random): number {
  const base = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, deaths - 1));
  return Math.round(base * (1 + policy.jitter * random()));
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const shardList = (shards: number[]): string => `shard${shards.length > 1 ? 's' : ''} ${shards.join(', ')}`;

/**
 * The IDENTIFY queue of this machine: one turn per bucket every 5 s, whichever cluster asks. discord.js's own throttler
 * does this within one process; across processes only the manager can.
 */
class IdentifyQueue {
  private readonly freeAt = new Map<number, number>();
  private readonly tails = new Map<number, Promise<void>>();
  private readonly sleepers = new Set<() => void>();
  private closed = false;

  constructor(private readonly maxConcurrency: number) {}

  /** Resolves when `shard` may IDENTIFY; its bucket's next turn is then 5.5 s on. */
  turn(shard: number): Promise<void> {
    const bucket = shard % this.maxConcurrency;
    const previous = this.tails.get(bucket) ?? Promise.resolve();
    const mine = previous.then(async () => {
      const wait = (this.freeAt.get(bucket) ?? 0) - Date.now();
      if (wait > 0) await this.sleep(wait);
      if (this.closed) throw new Error('the shard manager is stopping');
      this.freeAt.set(bucket, Date.now() + IDENTIFY_SPACING_MS);
    });
    this.tails.set(bucket, mine.catch(() => undefined));
    return mine;
  }

  /** The cluster sent its IDENTIFY now: the bucket's next turn is 5 s from here at the earliest. */
  identified(shard: number): void {
    const bucket = shard % this.maxConcurrency;
    this.freeAt.set(bucket, Math.max(this.freeAt.get(bucket) ?? 0, Date.now() + AFTER_IDENTIFIED_MS));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  /** Stopping: every cluster still waiting for a turn is told no. */
  close(): void {
    this.closed = true;
    for (const wake of this.sleepers) wake();
  }
}

/** What the manager knows of Discord's daily session start limit. */
interface SessionBudget {
  total: number;
  remaining: number;
  /** Date.now() when Discord resets `remaining` to `total`. */
  resetsAt: number;
}

interface ClusterState {
  plan: ClusterPlan;
  cluster: Cluster;
  /** Deaths in a row (reset by a long enough ready spell). */
  deaths: number;
  readyAt: number | null;
  everReady: boolean;
  /** A respawn waiting for its backoff or for the session start limit to reset. */
  timer: NodeJS.Timeout | null;
}

/** Starts the manager and resolves once every cluster is ready (the sandbox's way; main.ts uses launchShardManager). */
export async function startShardManager(options: ShardManagerOptions): Promise<RunningShards> {
  const running = await launchShardManager(options);
  await running.ready;
  return running;
}

/**
 * Asks /gateway/bot, migrates, spawns the clusters, and resolves as soon as the manager can be stopped (SIGTERM during
 * start-up then stops whatever started); `ready` settles once every cluster has been ready once.
 */
export async function launchShardManager(options: ShardManagerOptions): Promise<RunningShards> {
  const { log } = options;
  const policy: RespawnPolicy = { ...DEFAULT_RESPAWN_POLICY, ...options.respawn };
  const gateway = await askGateway(options);
  const count = options.count === 'auto' ? gateway?.shards : options.count;
  if (count === undefined) throw new Error(`SHARD_COUNT=auto needs Discord's /gateway/bot, which did not answer (see the warning above): set SHARD_COUNT to a number.`);
  const ids = options.ids ?? Array.from({ length: count }, (_, id) => id);
  const outside = ids.filter((id) => id >= count);
  if (outside.length > 0) throw new Error(`SHARD_IDS names shard${outside.length > 1 ? 's' : ''} ${outside.join(', ')}, but Discord recommends ${count} shards (SHARD_COUNT=auto): the shards are 0 to ${count - 1}.`);
  const maxConcurrency = Math.max(1, gateway?.session_start_limit.max_concurrency ?? 1);
  const budget: SessionBudget | null = gateway ? budgetOf(gateway) : null;

  // Once, before any shard starts: the shards then open a database that is already up to date.
  // Loaded here only: the database's clients are the largest part of a process, and the manager needs them this once.
  const { migrateDatabase } = await import('../store/database.js');
  await migrateDatabase(options.databaseUrl);
  log.info('database migrations applied');

  const entry = options.entry ?? process.argv[1]!;
  // The cluster processes run like this one (npm start's memory flags, tsx for the TypeScript source).
  const execArgv = [...process.execArgv];
  if (/\.[mc]?ts$/.test(entry) && !execArgv.some((arg) => arg.includes('tsx'))) execArgv.push('--import', 'tsx');
  const plans = planClusters(ids, options.shardsPerProcess ?? 'auto');
  const manager = createManager(entry, { count, ids, clusters: plans.length, token: options.token, execArgv, shardArgs: options.shardArgs ?? [] });
  manager.on('error', (error: Error) => log.error({ err: error }, 'a cluster process could not be started or reached'));

  const queue = new IdentifyQueue(maxConcurrency);
  // A cluster waits its turn for each of its shards: the deepest bucket of this machine is the longest queue.
  const spawnTimeoutMs = BOOT_TIMEOUT_MS + IDENTIFY_SPACING_MS * Math.ceil(ids.length / maxConcurrency);
  const states = new Map<number, ClusterState>();
  let stopping = false;
  let reportReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (reportReady = resolve));
  const name = (plan: ClusterPlan): string => `cluster ${plan.id} (${shardList(plan.shards)} of ${count})`;

  // Every IDENTIFY of every cluster process waits its bucket's turn here (client.ts asks before each one).
  manager.on('clientRequest', (message: { [key: string]: unknown; reply(answer: object): Promise<unknown> }) => {
    if (message.type !== IDENTIFY_REQUEST || typeof message.shard !== 'number') return;
    queue.turn(message.shard).then(
      () => void message.reply({ go: true }).catch(() => undefined),
      () => void message.reply({ go: false }).catch(() => undefined),
    );
  });
  manager.on('clusterCreate', (cluster: Cluster) => {
    cluster.on('message', (message: unknown) => {
      const notice = message as { type?: unknown; shard?: unknown } | null;
      if (notice?.type === IDENTIFIED_NOTICE && typeof notice.shard === 'number') queue.identified(notice.shard);
    });
  });

  /** Whether Discord's daily limit leaves room for `plan`'s sessions; if not, says so and retries after the reset. */
  const withinBudget = async (state: ClusterState, respawn: boolean): Promise<boolean> => {
    if (!budget) return true;
    if (respawn) {
      // Cheap, and the truth: other machines, and IDENTIFYs discord.js made on its own (an invalidated session), count too.
      const fresh = await askGateway(options, true);
      if (fresh) Object.assign(budget, budgetOf(fresh));
    }
    if (Date.now() >= budget.resetsAt) budget.remaining = budget.total;
    const need = state.plan.shards.length;
    // The first start is the operator's own; respawns leave a reserve for the operator's next restart.
    const reserve = respawn ? Math.ceil(budget.total * policy.reserve) : 0;
    if (budget.remaining - need >= reserve) {
      budget.remaining -= need;
      return true;
    }
    const resetInMs = Math.max(0, budget.resetsAt - Date.now());
    log.error(
      { cluster: state.plan.id, shards: state.plan.shards, sessionStartLimit: { ...budget, reserve }, resetInMs },
      `${name(state.plan)} is not ${respawn ? 'respawned' : 'started'}: Discord allows ${budget.remaining} more session start${budget.remaining === 1 ? '' : 's'} today (of ${budget.total}), ` +
        `its ${need} shard${need === 1 ? '' : 's'} would ${reserve > 0 ? `leave less than the ${reserve} kept for restarts by hand` : 'need more'}; ` +
        `trying again when the limit resets, in ${seconds(resetInMs)} (${new Date(budget.resetsAt).toISOString()})`,
    );
    schedule(state, resetInMs + Math.round(1_000 * (1 + Math.random())), respawn);
    return false;
  };

  const schedule = (state: ClusterState, delayMs: number, respawn: boolean): void => {
    if (stopping) return;
    state.timer = setTimeout(() => {
      state.timer = null;
      void start(state, respawn);
    }, delayMs);
  };

  const start = async (state: ClusterState, respawn: boolean): Promise<void> => {
    if (stopping || !(await withinBudget(state, respawn)) || stopping) return;
    state.cluster.spawn(spawnTimeoutMs).catch((error: Error) => {
      // Died before ready: the death handler respawns it. Not ready in time: killed, and then respawned the same way.
      const child = state.cluster.thread?.process as ChildProcess | undefined;
      if (/TIMEOUT/.test(error.message) && child && child.exitCode === null && child.signalCode === null) {
        log.error({ cluster: state.plan.id, shards: state.plan.shards, pid: child.pid }, `${name(state.plan)}: process ${child.pid} not ready within ${seconds(spawnTimeoutMs)}; killing it`);
        child.kill('SIGKILL');
      } else if (!/DIED/.test(error.message)) {
        log.error({ err: error, cluster: state.plan.id, shards: state.plan.shards }, `${name(state.plan)}: could not be spawned; trying again`);
        schedule(state, respawnDelay(++state.deaths, policy), true);
      }
    });
  };

  for (const plan of plans) {
    const cluster = manager.createCluster(plan.id, plan.shards, count);
    Object.assign(cluster.env, clusterEnv(options.env));
    const state: ClusterState = { plan, cluster, deaths: 0, readyAt: null, everReady: false, timer: null };
    states.set(plan.id, state);
    cluster.on('spawn', (spawned) => {
      const child = spawned as ChildProcess;
      log.info({ cluster: plan.id, shards: plan.shards, pid: child.pid }, `${name(plan)}: process ${child.pid} spawned`);
    });
    cluster.on('ready', () => {
      state.readyAt = Date.now();
      const pid = (cluster.thread?.process as ChildProcess | undefined)?.pid;
      log.info({ cluster: plan.id, shards: plan.shards, pid }, `${name(plan)}: ready`);
      if (!state.everReady) {
        state.everReady = true;
        if ([...states.values()].every((one) => one.everReady)) {
          log.info({ shards: ids, count, clusters: plans.length, pids: Object.fromEntries(pids()) }, `shards running: ${ids.join(', ')} of ${count}, in ${plans.length} process${plans.length === 1 ? '' : 'es'}`);
          reportReady();
        }
      }
    });
    cluster.on('death', (_cluster, died) => {
      const child = died as ChildProcess | undefined;
      const how = { cluster: plan.id, shards: plan.shards, pid: child?.pid, exitCode: child?.exitCode ?? null, signal: child?.signalCode ?? null };
      const cause = child?.signalCode ?? `exit code ${child?.exitCode}`;
      if (stopping) {
        log.info(how, `${name(plan)}: process ${child?.pid} stopped (${cause})`);
        return;
      }
      // A cluster that ran long enough was not in a crash loop: its next death starts the backoff again.
      if (state.readyAt !== null && Date.now() - state.readyAt >= policy.resetAfterMs) state.deaths = 0;
      state.readyAt = null;
      state.deaths++;
      const delayMs = respawnDelay(state.deaths, policy);
      log.warn(
        { ...how, deaths: state.deaths, respawnInMs: delayMs },
        `${name(plan)}: process ${child?.pid} died (${cause}); respawning it in ${seconds(delayMs)} (death ${state.deaths} in a row)`,
      );
      schedule(state, delayMs, true);
    });
  }

  const pids = (): Map<number, number> =>
    new Map([...states.values()].flatMap((state) => {
      const pid = (state.cluster.thread?.process as ChildProcess | undefined)?.pid;
      return pid ? state.plan.shards.map((shard) => [shard, pid] as [number, number]) : [];
    }));
  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      stopping = true;
      queue.close();
      for (const state of states.values()) if (state.timer) clearTimeout(state.timer);
      await Promise.all([...states.values()].map((state) => stopClusterProcess(state, log)));
    })();
    return stopped;
  };

  const perProcess = plans.length > 0 ? Math.max(...plans.map((plan) => plan.shards.length)) : 0;
  log.info(
    { shards: ids, count, clusters: plans.map((plan) => plan.shards), maxConcurrency, sessionStartLimit: budget },
    `spawning ${plans.length} process${plans.length === 1 ? '' : 'es'} for ${shardList(ids)} of ${count} (up to ${perProcess} shard${perProcess === 1 ? '' : 's'} each); ` +
      `their IDENTIFYs take turns, one per ${seconds(IDENTIFY_SPACING_MS)} in each of ${maxConcurrency} bucket${maxConcurrency === 1 ? '' : 's'}`,
  );
  for (const state of states.values()) void start(state, false);
  return { count, ids, clusters: plans, pids, ready, stop };
}

/**
 * discord-hybrid-sharding's manager, with its own respawn off (it respawns at once) and its environment changes
 * undone: it writes CLUSTER_MANAGER, SHARD_LIST, DISCORD_TOKEN … into this process's environment, which a sandbox or
 * a test running the manager in its own process would then read as its own.
 */
function createManager(entry: string, options: { count: number; ids: number[]; clusters: number; token: string; execArgv: string[]; shardArgs: string[] }): ClusterManager {
  const saved = { ...process.env };
  try {
    const manager = new ClusterManager(entry, {
      totalShards: options.count,
      totalClusters: options.clusters,
      shardList: options.ids,
      mode: 'process',
      respawn: false,
      token: options.token,
      execArgv: options.execArgv,
      shardArgs: options.shardArgs,
      queue: { auto: false },
    });
    manager.totalClusters = options.clusters;
    return manager;
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** What a cluster process needs beyond the variables Cluster sets (SHARD_LIST, TOTAL_SHARDS, CLUSTER, …). */
function clusterEnv(extra: Record<string, string> | undefined): Record<string, string> {
  return { CLUSTER_MANAGER_MODE: 'process', CLUSTER_QUEUE_MODE: 'manual', ...extra };
}

function budgetOf(gateway: RESTGetAPIGatewayBotResult): SessionBudget {
  const limit = gateway.session_start_limit;
  return { total: limit.total, remaining: limit.remaining, resetsAt: Date.now() + limit.reset_after };
}

/**
 * /gateway/bot: the recommended shard count and the session start limit; null (warned) when it cannot be had, except
 * at start with SHARD_COUNT=auto, which cannot go on without it. `refreshing`: a respawn's look at the budget, asked
 * once, never fatal.
 */
async function askGateway(options: ShardManagerOptions, refreshing = false): Promise<RESTGetAPIGatewayBotResult | null> {
  const rest = new REST({ ...(options.restApi ? { api: options.restApi } : {}), retries: refreshing ? 0 : 3 }).setToken(options.token);
  try {
    return (await rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
  } catch (error) {
    if (!refreshing && options.count === 'auto') throw new Error(`SHARD_COUNT=auto: Discord's /gateway/bot did not answer (${String((error as Error)?.message ?? error)}); check DISCORD_TOKEN, or set SHARD_COUNT to a number.`);
    if (refreshing) options.log.warn({ err: error }, 'could not read the session start limit from /gateway/bot; counting on the manager’s own tally');
    else options.log.warn({ err: error }, 'could not read the session start limit from /gateway/bot; IDENTIFYs take turns as for max_concurrency 1, with no daily budget kept');
    return null;
  }
}

async function stopClusterProcess(state: ClusterState, log: Logger): Promise<void> {
  const child = state.cluster.thread?.process as ChildProcess | undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    log.error({ cluster: state.plan.id, shards: state.plan.shards, pid: child.pid }, `cluster ${state.plan.id}: process ${child.pid} did not stop within ${seconds(STOP_GRACE_MS)} of SIGTERM; killing it`);
    child.kill('SIGKILL');
  }, STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
