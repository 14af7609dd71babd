/**
 * `npm run deploy`: registers the bot's command list now, globally (src/discord/slash-list.ts), as the bot does when
 * it starts, even when the bot believes it registered (after someone removed commands in Discord's settings, say),
 * and clears the lists an older version registered in each server, which Discord would show beside the global
 * one. The bot needs no deploy step: it registers the list itself when it changed.
 */
import { pathToFileURL } from 'node:url';
// REST alone, as the discord.js guide deploys: registering commands needs no gateway login.
import { REST } from '@discordjs/rest';
import { Routes } from 'discord.js';
import { commands, contextMenus } from '../commands/index.js';
import { loadConfig } from './config.js';
import { CommandList, globalCommandList, retireServerLists, type RegistrationOutcome } from './discord/slash-list.js';
import { createLogger, type Logger } from './log.js';
import { migrateDatabase } from './store/database.js';
import { openStore, type Store } from './store/index.js';

/** Every slash command whole and every context menu: the list the bot registers for every server. */
export function commandDefinitions() {
  return globalCommandList(commands, contextMenus);
}

/**
 * Registers the command list, with no database: for tests and benchmarks that run the bot as a child process
 * against a fake Discord and want the commands there before it registers them itself (in one server, or globally).
 */
export async function registerCommands(rest: REST, applicationId: string, guildId: string | null): Promise<number> {
  const body = commandDefinitions();
  const route = guildId ? Routes.applicationGuildCommands(applicationId, guildId) : Routes.applicationCommands(applicationId);
  const registered = (await rest.put(route, { body })) as unknown[];
  return registered.length;
}

export interface DeployOptions {
  rest: REST;
  applicationId: string;
  store: Pick<Store, 'servers' | 'commandRegistrations'>;
  log: Logger;
  /** A server whose own list is cleared even if the database does not know it has one (DISCORD_GUILD_ID); null: none. */
  guildId: string | null;
  /** As the bot's (BotOptions.commandsScope): the REST base, so the bot then finds the digest deploy wrote. */
  scope: string;
}

export async function deployCommands(options: DeployOptions): Promise<{ global: RegistrationOutcome; ownListsCleared: number; ownListsFailed: number }> {
  const { rest, applicationId, store, log } = options;
  const list = new CommandList({ rest, applicationId: () => applicationId, commands, menus: contextMenus, registrations: store.commandRegistrations, log, scope: options.scope });
  const global = await list.register({ force: true });
  // A server named by hand may have a list the database never knew of (registered by hand, or by another copy).
  const named = options.guildId ? [options.guildId] : [];
  const own = await retireServerLists({ rest, applicationId, registrations: store.commandRegistrations, servers: store.servers, shards: null, named, log });
  return { global, ownListsCleared: own.cleared, ownListsFailed: own.failed };
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
    const done = await deployCommands({ rest, applicationId: config.applicationId, store, log, guildId: config.deployGuildId, scope: config.discordApi ?? 'discord.com' });
    console.log(`Registered ${done.global.commands} commands globally: every server the bot is in has them (Discord's clients refresh their list within moments).`);
    if (done.ownListsCleared) console.log(`Cleared the own command lists an older version had registered in ${done.ownListsCleared} servers.`);
    if (done.ownListsFailed) {
      console.log(`${done.ownListsFailed} servers' own lists could not be cleared (see the log); run npm run deploy again, or let the bot try at its next start.`);
      process.exitCode = 1;
    }
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
