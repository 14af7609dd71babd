/** The discord.js client, set up the one way the bot uses it. */
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { NO_PINGS } from '../views/limits.js';

/** `restApi` points REST at a fake Discord (sandbox, tests); the gateway URL then comes from that fake too. */
export function createClient(restApi?: string): Client {
  return new Client({
    // Slash commands need no privileged intent; Guilds gives the roles that make a Dispatcher.
    intents: [GatewayIntentBits.Guilds],
    // A safety net: every reply already says so, but nothing the bot sends may ping unless it means to.
    allowedMentions: NO_PINGS,
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
