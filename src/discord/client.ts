/** The discord.js client, set up the one way the bot uses it. */
import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import { NO_PINGS } from '../views/limits.js';

/** `restApi` points REST at a fake Discord (sandbox, tests); the gateway URL then comes from that fake too. */
export function createClient(restApi?: string): Client {
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
    ...(restApi ? { rest: { api: restApi } } : {}),
  });
}

export async function loginAndWaitUntilReady(client: Client, token: string, timeoutMs = 30_000): Promise<void> {
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Discord did not report ready within ${timeoutMs / 1000} s`)), timeoutMs);
    client.once(Events.ClientReady, () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await client.login(token);
  await ready;
}
