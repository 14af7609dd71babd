/** The discord.js client, set up the one way the bot uses it. */
import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import { NO_PINGS } from '../views/limits.js';

/** The shards one process runs, of how many in all. */
export interface ShardSet {
  ids: number[];
  count: number;
}

/**
 * `restApi` points REST at a fake Discord (sandbox, tests); the gateway URL then comes from that fake too. `shards`
 * makes it one process of a sharded bot: its gateway runs those shards only, and its REST User-Agent names them
 * (`shards/0,2`) so a Discord that checks (the fake) can tell which process answered an interaction.
 */
export function createClient(restApi?: string, shards?: ShardSet): Client {
  const rest = { ...(restApi ? { api: restApi } : {}), ...(shards ? { userAgentAppendix: `shards/${shards.ids.join(',')}` } : {}) };
  return new Client({
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
  });
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
