/**
 * `npm run deploy`: registers the slash lists now, as the bot does when it starts (src/discord/slash-list.ts): in
 * DISCORD_GUILD_ID's server when it is set, else in every server the bot is in, each server getting the commands
 * of the systems it plays (`/config systems`) and the common ones. Nothing is registered globally; global commands
 * an older version left are removed. The bot needs no deploy step: this re-registers a list by hand, even one the
 * bot believes is registered (after someone removed commands in Discord's settings, say).
 */
import { pathToFileURL } from 'node:url';
// REST alone, as the discord.js guide deploys: registering commands needs no gateway login.
import { REST } from '@discordjs/rest';
import { Routes, type RESTGetAPICurrentUserGuildsResult } from 'discord.js';
import { commands, contextMenus } from '../commands/index.js';
import { loadConfig } from './config.js';
import type { SlashListOutcome } from './discord/command.js';
import { SlashList } from './discord/slash-list.js';
import { createLogger, type Logger } from './log.js';
import { migrateDatabase } from './store/database.js';
import { openStore, type Store } from './store/index.js';

/** Every command whole: the list of a server that plays every system. */
export function commandDefinitions() {
  return commands.map((command) => command.data.toJSON());
}

/**
 * Registers every command in one server, with no database: for tests and benchmarks that run the bot as a child
 * process against a fake Discord. The bot itself registers each server's own list.
 */
export async function registerCommands(rest: REST, applicationId: string, guildId: string | null): Promise<number> {
  const body = commandDefinitions();
  const route = guildId ? Routes.applicationGuildCommands(applicationId, guildId) : Routes.applicationCommands(applicationId);
  const registered = (await rest.put(route, { body })) as unknown[];
  return registered.length;
}

/** The servers the bot is in, a page of 200 at a time. */
async function botGuildIds(rest: REST): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const query = new URLSearchParams({ limit: '200', ...(ids.length ? { after: ids.at(-1)! } : {}) });
    const page = (await rest.get(Routes.userGuilds(), { query })) as RESTGetAPICurrentUserGuildsResult;
    ids.push(...page.map((guild) => guild.id));
    if (page.length < 200) return ids;
  }
}

export interface DeployOptions {
  rest: REST;
  applicationId: string;
  store: Pick<Store, 'servers'>;
  log: Logger;
  /** One server; null → every server the bot is in. */
  guildId: string | null;
  /** As the bot's (BotOptions.commandsScope): the REST base, so the bot then finds the digests deploy wrote. */
  scope: string;
}

export async function deploySlashLists(options: DeployOptions): Promise<{ globalRemoved: number; servers: Array<{ guildId: string; outcome: SlashListOutcome }> }> {
  const slashList = new SlashList({ rest: options.rest, applicationId: () => options.applicationId, commands, menus: contextMenus, servers: options.store.servers, log: options.log, scope: options.scope });
  const globalRemoved = await slashList.clearGlobal();
  const guildIds = options.guildId ? [options.guildId] : await botGuildIds(options.rest);
  const servers = [];
  for (const guildId of guildIds) servers.push({ guildId, outcome: await slashList.update(guildId, true) });
  return { globalRemoved, servers };
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.discordToken || !config.applicationId) {
    console.error('npm run deploy needs DISCORD_TOKEN and DISCORD_APPLICATION_ID in .env (see .env.example).');
    process.exit(1);
  }
  // DISCORD_API: the same Discord the bot talks to (a sandbox or a proxy), not always discord.com.
  const rest = new REST(config.discordApi ? { api: config.discordApi } : {}).setToken(config.discordToken);
  const log = createLogger(config.logLevel);
  await migrateDatabase(config.databaseUrl);
  const store = await openStore(config.databaseUrl, log);
  try {
    const done = await deploySlashLists({ rest, applicationId: config.applicationId, store, log, guildId: config.deployGuildId, scope: config.discordApi ?? 'discord.com' });
    if (done.globalRemoved) console.log(`Removed ${done.globalRemoved} global commands (each server now has its own list).`);
    for (const { guildId, outcome } of done.servers) {
      console.log(
        outcome.kind === 'failed'
          ? `Server ${guildId}: not registered: ${outcome.reason}`
          : `Server ${guildId}: registered ${outcome.names.length} commands (${outcome.names.map((name) => `/${name}`).join(', ')}).`,
      );
    }
    if (done.servers.length === 0) console.log('The bot is in no server yet: invite it, and it registers its commands there when it starts or joins.');
    if (done.servers.some(({ outcome }) => outcome.kind === 'failed')) process.exitCode = 1;
  } finally {
    await store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
