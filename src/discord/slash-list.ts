/**
 * Each server's slash list: the commands of the rule systems it plays (`/config systems`) and the common ones,
 * registered by the bot in that server and never globally, so a table that plays d6 pools is not shown /tactics,
 * /code and /d10. Discord allows 200 command creates per server per day: a list is registered only when it differs
 * from the one last registered there (its digest is kept with the server's settings), so a restart, a reconnect or
 * a setting chosen again registers nothing.
 */
import { createHash } from 'node:crypto';
import {
  Routes,
  type ChatInputCommandInteraction,
  type ContextMenuCommandInteraction,
  type ModalSubmitInteraction,
  type REST,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import { type SystemId } from '../engine/systems/index.js';
import { UserError } from '../errors.js';
import type { Logger } from '../log.js';
import { playedSystems, type ServerStore } from '../store/servers.js';
import { unplayedCommandText } from '../views/config.js';
import type { BotCommand, BotContextMenu, SlashListOutcome, SlashListUpdater } from './command.js';

type Definition = RESTPostAPIChatInputApplicationCommandsJSONBody;
/** What one bulk registration carries: the slash commands, then the context-menu commands (types 2 and 3). */
type ListEntry = Definition | RESTPostAPIContextMenuApplicationCommandsJSONBody;

function playsCommand(command: BotCommand, played: readonly SystemId[]): boolean {
  return !command.systems || command.systems.some((id) => played.includes(id));
}

/** The subcommands of a command every server has, whatever it plays (`dice`, `replay` of /roll). */
function everywherePaths(command: BotCommand): string[] {
  return command.subcommands.filter((subcommand) => subcommand.everywhere).map((subcommand) => subcommand.path);
}

/** The command as a server that plays `played` has it: whole, cut down to its everywhere part, or not at all. */
export function definitionFor(command: BotCommand, played: readonly SystemId[]): Definition | null {
  const whole = command.data.toJSON();
  if (playsCommand(command, played)) return whole;
  const everywhere = everywherePaths(command);
  const description = command.everywhereDescription;
  if (everywhere.length === 0 || description === undefined) return null;
  // A group is kept when one of its subcommands is offered everywhere.
  const kept = new Set(everywhere.map((path) => path.split(' ')[0]));
  return { ...whole, description, options: (whole.options ?? []).filter((option) => kept.has(option.name)) };
}

/** The slash list of a server that plays `played`, in the bot's order. */
export function slashListFor(commands: readonly BotCommand[], played: readonly SystemId[]): Definition[] {
  return commands.flatMap((command) => {
    const definition = definitionFor(command, played);
    return definition ? [definition] : [];
  });
}

/** The context-menu commands of a server that plays `played`: those of no system, and those of a system it plays. */
export function menuListFor(menus: readonly BotContextMenu[], played: readonly SystemId[]): RESTPostAPIContextMenuApplicationCommandsJSONBody[] {
  return menus.filter((menu) => !menu.systems || menu.systems.some((id) => played.includes(id))).map((menu) => menu.data.toJSON());
}

/**
 * A context menu of a system this server no longer plays can still arrive from a client that has not refreshed
 * its list, and a form it opened can be sent after: refused, privately, as a slash command of that system is.
 */
export async function requireMenuPlayedHere(interaction: ContextMenuCommandInteraction | ModalSubmitInteraction, menu: BotContextMenu, servers: ServerStore): Promise<void> {
  if (!menu.systems) return;
  const played = playedSystems(await servers.settings(interaction.guildId ?? ''));
  if (menu.systems.some((id) => played.includes(id))) return;
  throw new UserError(unplayedCommandText(menu.name, menu.systems, played));
}

/** The systems a command (or one of its subcommands) belongs to; undefined when every server has it. */
export function systemsOfSubcommand(command: BotCommand, subcommand: string | null): readonly SystemId[] | undefined {
  if (subcommand !== null && everywherePaths(command).includes(subcommand)) return undefined;
  return command.systems;
}

/**
 * A command this server's list no longer has can still arrive, from a Discord client that has not refreshed its
 * list: it is refused, privately, with how to get it back. Other commands pass without a look at the settings.
 */
export async function requirePlayedHere(interaction: ChatInputCommandInteraction, command: BotCommand, servers: ServerStore): Promise<void> {
  const subcommand = interaction.options.getSubcommand(false);
  if (!systemsOfSubcommand(command, subcommand) || !command.systems) return;
  const played = playedSystems(await servers.settings(interaction.guildId ?? ''));
  if (playsCommand(command, played)) return;
  throw new UserError(unplayedCommandText(`/${command.data.name}${subcommand ? ` ${subcommand}` : ''}`, command.systems, played));
}

/** What the list's registration is known by: where it was registered (which Discord, which application) and what. */
function digestOf(scope: string, body: ListEntry[]): string {
  return createHash('sha256').update(JSON.stringify({ scope, body })).digest('hex');
}

export interface SlashListOptions {
  rest: REST;
  /** Known once the client is ready. */
  applicationId(): string;
  commands: readonly BotCommand[];
  /** The context-menu commands, registered in the same list after the slash commands. */
  menus?: readonly BotContextMenu[];
  servers: ServerStore;
  log: Logger;
  /**
   * The Discord the lists are registered at, part of the digest: another API, or a fresh fake Discord (which knows
   * no commands), registers anew even where the database remembers a list.
   */
  scope: string;
}

export class SlashList implements SlashListUpdater {
  private readonly running = new Map<string, Promise<SlashListOutcome>>();

  constructor(private readonly options: SlashListOptions) {}

  /** Registers the server's list unless it is the one registered there last (`force`: even then, `npm run deploy`). */
  update(guildId: string, force = false): Promise<SlashListOutcome> {
    // One registration per server at a time and in order: a GUILD_CREATE and a /config change at once end with the
    // latest setting registered, and the second finds the first's digest.
    const next = (this.running.get(guildId) ?? Promise.resolve()).catch(() => undefined).then(() => this.register(guildId, force));
    this.running.set(guildId, next);
    const forget = () => {
      if (this.running.get(guildId) === next) this.running.delete(guildId);
    };
    next.then(forget, forget);
    return next;
  }

  /** Every server in turn (a first start after an upgrade registers them all, at Discord's pace). */
  async updateAll(guildIds: Iterable<string>): Promise<void> {
    for (const guildId of guildIds) {
      try {
        await this.update(guildId);
      } catch (error) {
        this.options.log.error({ err: error, guildId }, 'the slash list could not be checked');
      }
    }
  }

  /**
   * Removes global commands, which older versions registered: beside a server's own list Discord would show both.
   * One read when there are none.
   */
  async clearGlobal(): Promise<number> {
    const { rest } = this.options;
    const route = Routes.applicationCommands(this.options.applicationId());
    const registered = (await rest.get(route)) as unknown[];
    if (registered.length === 0) return 0;
    await rest.put(route, { body: [] });
    this.options.log.info({ commands: registered.length }, 'global commands removed: each server has its own slash list');
    return registered.length;
  }

  commandsOf(system: SystemId): string[] {
    return this.options.commands.filter((command) => command.systems?.includes(system)).map((command) => command.data.name);
  }

  commonCommands(): string[] {
    return this.options.commands.flatMap((command) =>
      !command.systems ? [command.data.name] : everywherePaths(command).map((sub) => `${command.data.name} ${sub}`),
    );
  }

  /** Resolves once no registration is under way. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private async register(guildId: string, force: boolean): Promise<SlashListOutcome> {
    const { servers, log } = this.options;
    const applicationId = this.options.applicationId();
    const settings = await servers.settings(guildId);
    const played = playedSystems(settings);
    const slash = slashListFor(this.options.commands, played);
    const body: ListEntry[] = [...slash, ...menuListFor(this.options.menus ?? [], played)];
    // The slash commands' names: what /config and `npm run deploy` show as `/name`.
    const names = slash.map((definition) => definition.name);
    const digest = digestOf(`${this.options.scope} ${applicationId}`, body);
    if (!force && settings.commandsDigest === digest) return { kind: 'unchanged', names };
    try {
      await this.options.rest.put(Routes.applicationGuildCommands(applicationId, guildId), { body });
    } catch (error) {
      // Not retried here (a loop would spend the day's creates): the next start or `/config systems` tries again.
      log.warn({ err: error, guildId }, 'the slash list was not registered');
      return { kind: 'failed', names, reason: error instanceof Error ? error.message : String(error) };
    }
    await servers.update(guildId, { commandsDigest: digest });
    log.info({ guildId, commands: names.length }, 'slash list registered');
    return { kind: 'registered', names };
  }
}
