/** The discord.js client, set up the one way the bot uses it. */
import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import type { ClusterClient } from 'discord-hybrid-sharding';
import { createRequire } from 'node:module';
import { NO_PINGS } from '../views/limits.js';

/** The IPC request a cluster process sends before each IDENTIFY, and its word that it sent it (src/discord/shards.ts answers). */
export const IDENTIFY_REQUEST = 'tactalk:identify';
export const IDENTIFIED_NOTICE = 'tactalk:identified';

/** The shards one process runs, of how many in all. */
export interface ShardSet {
  ids: number[];
  count: number;
  /**
   * The cluster of the shard manager (src/discord/shards.ts) this process runs as: its IDENTIFYs then wait for the
   * manager's turn, and it tells the manager when it is ready (reportClusterReady). Absent: a process on its own.
   */
  cluster?: number;
}

const clusters = new WeakMap<Client, ClusterClient<Client>>();

/**
 * discord.js paces the IDENTIFYs of one process's shards (5 s per max_concurrency bucket); the clusters of a machine
 * are several processes, so each IDENTIFY asks the manager, the one queue of them all, and says when it was sent.
 */
function joinClusterManager(client: Client): ClusterClient<Client> {
  // Loaded by cluster processes only: a bot on its own does not pay ~10 ms of its cold start for it.
  const { ClusterClient: Joined } = createRequire(import.meta.url)('discord-hybrid-sharding') as typeof import('discord-hybrid-sharding');
  const cluster = new Joined<Client>(client);
  clusters.set(client, cluster);
  return cluster;
}

function identifyThrottler(client: Client): { waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> } {
  return {
    async waitForIdentify(shardId, signal) {
      const cluster = clusters.get(client)!;
      const answer = cluster.request({ type: IDENTIFY_REQUEST, shard: shardId }) as Promise<{ go?: boolean }>;
      const aborted = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(new Error('aborted'));
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
      const { go } = await Promise.race([answer, aborted]);
      if (!go) throw new Error('the shard manager is stopping');
      // After discord.js has sent the IDENTIFY (it does so as soon as this resolves, before a macrotask runs).
      setImmediate(() => void cluster.send({ type: IDENTIFIED_NOTICE, shard: shardId })?.catch(() => undefined));
    },
  };
}

/** Tells the shard manager this cluster is ready: its shards are logged in and its store is open. */
export function reportClusterReady(client: Client): void {
  clusters.get(client)?.triggerReady();
}

/**
 * `restApi` points REST at a fake Discord (sandbox, tests); the gateway URL then comes from that fake too. `shards`
 * makes it one process of a sharded bot: its gateway runs those shards only, and its REST User-Agent names them
 * (`shards/0,2`) so a Discord that checks (the fake) can tell which process answered an interaction.
 */
export function createClient(restApi?: string, shards?: ShardSet): Client {
  const rest = { ...(restApi ? { api: restApi } : {}), ...(shards ? { userAgentAppendix: `shards/${shards.ids.join(',')}` } : {}) };
  const client: Client = new Client({
    // Slash commands need no privileged intent; Guilds gives the roles that make a Dispatcher.
    intents: [GatewayIntentBits.Guilds],
    // A safety net: every reply already says so, but nothing the bot sends may ping unless it means to.
    allowedMentions: NO_PINGS,
    // Every interaction brings its user and member, and discord.js would keep each one for good: bounded, so memory
    // follows the players active lately rather than everyone ever seen. Nothing here reads these caches (permissions
    // come with the interaction, messages are edited by id).
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 25,
      UserManager: { maxSize: 1000, keepOverLimit: (user) => user.id === user.client.user.id },
      GuildMemberManager: { maxSize: 1000, keepOverLimit: (member) => member.id === member.client.user.id },
      PresenceManager: 0,
      ReactionManager: 0,
    }),
    ...(Object.keys(rest).length > 0 ? { rest } : {}),
    ...(shards ? { shards: shards.ids, shardCount: shards.count } : {}),
    ...(shards?.cluster !== undefined ? { ws: { buildIdentifyThrottler: () => identifyThrottler(client) } } : {}),
  });
  if (shards?.cluster !== undefined) joinClusterManager(client);
  return client;
}

export async function loginAndWaitUntilReady(client: Client, token: string, timeoutMs = 30_000): Promise<void> {
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Discord did not report ready within ${timeoutMs / 1000} s`)), timeoutMs);
    // Not what keeps the process alive (the gateway's socket is): a client destroyed mid-login leaves nothing waiting.
    timer.unref();
    client.once(Events.ClientReady, () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await client.login(token);
  await ready;
}
