/**
 * Registers the slash commands with Discord: `npm run deploy`. To one server when DISCORD_GUILD_ID is set
 * (instant, for testing), globally otherwise (may take up to an hour to show everywhere).
 */
import { pathToFileURL } from 'node:url';
import { REST, Routes } from 'discord.js';
import { commands } from '../../commands/index.js';
import { loadConfig } from '../config.js';

export function commandDefinitions() {
  return commands.map((command) => command.data.toJSON());
}

export async function registerCommands(rest: REST, applicationId: string, guildId: string | null): Promise<number> {
  const body = commandDefinitions();
  const route = guildId ? Routes.applicationGuildCommands(applicationId, guildId) : Routes.applicationCommands(applicationId);
  const registered = (await rest.put(route, { body })) as unknown[];
  return registered.length;
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.discordToken || !config.applicationId) {
    console.error('npm run deploy needs DISCORD_TOKEN and DISCORD_APPLICATION_ID in .env (see .env.example).');
    process.exit(1);
  }
  // DISCORD_API: the same Discord the bot talks to (a sandbox or a proxy), not always discord.com.
  const rest = new REST(config.discordApi ? { api: config.discordApi } : {}).setToken(config.discordToken);
  const count = await registerCommands(rest, config.applicationId, config.deployGuildId);
  console.log(`Registered ${count} commands ${config.deployGuildId ? `in server ${config.deployGuildId}` : 'globally'}.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
