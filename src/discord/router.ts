/**
 * Every interaction enters here: slash commands and autocomplete by command name, buttons / selects / modals
 * by the prefix of their custom_id (`sheet:delete:12` → the `sheet` command module). Failures go to one place.
 */
import type { Interaction } from 'discord.js';
import { UserError } from '../errors.js';
import type { BotCommand, BotServices, HandlerContext } from './command.js';
import { guardDeadline } from './deadline.js';
import { answerFailure } from './errors.js';
import { dispatcherRule, isDispatcher } from './permissions.js';
import { dispatcherOnlyText, dispatcherRequirement } from '../views/permissions.js';

export interface RouterOptions {
  /** How long a handler may run before the router acknowledges for it (src/discord/deadline.ts); default 2 s. */
  deferAfterMs?: number;
}

export class Router {
  private readonly commands: Map<string, BotCommand>;

  constructor(
    commands: readonly BotCommand[],
    private readonly services: BotServices,
    private readonly options: RouterOptions = {},
  ) {
    this.commands = new Map(commands.map((command) => [command.data.name, command]));
  }

  private contextFor(interaction: Interaction): HandlerContext {
    const log = this.services.log.child({ interactionId: interaction.id, guildId: interaction.guildId, userId: interaction.user.id });
    const settings = () => this.services.store.servers.settings(interaction.guildId ?? '');
    return {
      ...this.services,
      log,
      guildId: interaction.guildId ?? '',
      channelId: interaction.channelId ?? '',
      userId: interaction.user.id,
      isDispatcher: async () => isDispatcher(interaction, await settings()),
      requireDispatcher: async (action, advice) => {
        const current = await settings();
        if (!isDispatcher(interaction, current)) throw new UserError(dispatcherOnlyText(action, dispatcherRule(interaction, current), advice));
      },
      dispatcherRequirement: async () => dispatcherRequirement(dispatcherRule(interaction, await settings())),
    };
  }

  private commandFor(interaction: Interaction): BotCommand | undefined {
    if (interaction.isChatInputCommand() || interaction.isAutocomplete()) return this.commands.get(interaction.commandName);
    if (interaction.isMessageComponent() || interaction.isModalSubmit()) return this.commands.get(interaction.customId.split(':')[0] ?? '');
    return undefined;
  }

  async handle(interaction: Interaction): Promise<void> {
    const context = this.contextFor(interaction);
    const started = performance.now();
    const guard = guardDeadline(interaction, { afterMs: this.options.deferAfterMs, log: context.log });
    try {
      if (!interaction.inGuild()) throw new UserError('This bot works inside a server, where your sheets live. Use it in a server channel.');
      const command = this.commandFor(interaction);
      if (interaction.isChatInputCommand()) {
        if (!command) throw new UserError(`The command /${interaction.commandName} is not known to this bot version.`);
        await command.execute(interaction, context);
      } else if (interaction.isAutocomplete()) {
        if (command?.autocomplete) await command.autocomplete(interaction, context);
        else await interaction.respond([]);
      } else if (interaction.isMessageComponent() || interaction.isModalSubmit()) {
        if (!command?.component) throw new UserError('This button belongs to a feature that no longer exists.');
        await command.component(interaction, context);
      }
    } catch (error) {
      await answerFailure(interaction, error, context.log);
    } finally {
      guard.stop();
      context.log.debug({ ms: Math.round((performance.now() - started) * 100) / 100, deferred: guard.deferred }, 'interaction handled');
    }
  }
}
