/**
 * Every interaction enters here: slash commands and autocomplete by command name, buttons / selects / modals
 * by the family of their custom_id (`sheet:delete:12` → the `sheet` command module, which parses it with its `ids`).
 * Failures go to one place.
 */
import type { Interaction, MessageContextMenuCommandInteraction, ModalSubmitInteraction, UserContextMenuCommandInteraction } from 'discord.js';
import type { Logger } from '../log.js';
import { UserError } from '../errors.js';
import { menuCommandType, runnableOf, subcommandPath, type BotCommand, type BotContextMenu, type BotServices, type HandlerContext } from './command.js';
import { controlRefusal } from './control-origin.js';
import { answerFailure } from './errors.js';
import { typedBack } from './form-text.js';
import { isHeavyWork } from './heavy-work.js';
import { dispatcherRule, isDispatcher } from './permissions.js';
import { meetRequirement } from './requirements.js';
import { Responder } from './responder.js';
import { runTyped } from './roll-again.js';
import { requireMenuPlayedHere, requirePlayedHere, unplayedSuggestions } from './played-here.js';
import { inMessageTurn } from './stored-message.js';
import { HandlerTurns } from './turns.js';
import { dispatcherOnlyText, dispatcherRequirement } from '../views/permissions.js';
import { familyOf, outdatedControlText } from '../views/component-id.js';
import { shortWelcomeMessage, startSteps, welcomeMessage } from '../views/help.js';

export interface RouterOptions {
  /** How long a handler may run before the router acknowledges for it (src/discord/responder.ts); default 2 s. */
  deferAfterMs?: number;
  /** Post the welcome once in each server after its first command (default true); tests that count every answer turn it off. */
  welcome?: boolean;
  /** The context-menu commands served beside the slash commands (commands/index.ts). */
  menus?: readonly BotContextMenu[];
}

/** A context-menu command is known by its type and name: a member's and a message's may share a name. */
const menuKey = (type: number, name: string) => `${type}:${name}`;

/**
 * Handlers running at once (src/discord/turns.ts): enough to overlap one's reply in flight with others' work. Who
 * waits goes in a fair order between servers and members, and heavy work runs one at a time per member.
 */
const HANDLERS_AT_ONCE = 8;
/** An interaction expected to wait longer than this for its turn is acknowledged on arrival (the responder's 2 s deferral catches the rest). */
const ACKNOWLEDGE_IF_WAIT_OVER_MS = 2500;

export class Router {
  private readonly commands: Map<string, BotCommand>;
  private readonly served: readonly BotCommand[];
  private readonly menus: readonly BotContextMenu[];
  private readonly menusByKey: Map<string, BotContextMenu>;
  /** The context menus' forms by their custom_id family. */
  private readonly menuForms: Map<string, BotContextMenu>;
  private readonly turns = new HandlerTurns(HANDLERS_AT_ONCE);

  constructor(
    commands: readonly BotCommand[],
    private readonly services: BotServices,
    private readonly options: RouterOptions = {},
  ) {
    this.served = commands;
    this.commands = new Map(commands.map((command) => [command.data.name, command]));
    this.menus = options.menus ?? [];
    this.menusByKey = new Map(this.menus.map((menu) => [menuKey(menuCommandType(menu.target), menu.name), menu]));
    this.menuForms = new Map(this.menus.flatMap((menu) => (menu.form ? [[menu.form.ids.family, menu] as const] : [])));
    for (const family of this.menuForms.keys()) {
      if (this.commands.has(family)) throw new Error(`the form family "${family}" of a context menu is also a command's`);
    }
  }

  /** The context menu whose form this submit is, when its family is a menu's. */
  private menuFormOf(interaction: Interaction): BotContextMenu | undefined {
    return interaction.isModalSubmit() ? this.menuForms.get(familyOf(interaction.customId)) : undefined;
  }

  /** A context-menu command: the server plays its systems, the member meets its requirement, then it runs. */
  private async runMenu(interaction: MessageContextMenuCommandInteraction | UserContextMenuCommandInteraction, context: HandlerContext): Promise<void> {
    const menu = this.menuOf(interaction);
    if (!menu) throw new UserError(`“${interaction.commandName}” is not known to this bot version.`);
    await requireMenuPlayedHere(interaction, menu, this.services.store.servers);
    await meetRequirement(menu.requires, interaction, context);
    await menu.run(interaction, context);
  }

  /**
   * A form a context menu opened. It comes with no message (Discord sends one only with a form a message's control
   * opened), so there is no origin to check: its submit asks for nothing its command could not ask for itself, and
   * the menu's submit checks who may and what anew, as the command does.
   */
  private async submitMenuForm(interaction: ModalSubmitInteraction, menu: BotContextMenu, context: HandlerContext): Promise<void> {
    const form = menu.form!;
    const value = form.ids.parse(interaction.customId);
    if (value === null) throw new UserError(`This form is from an older version of the bot, or was not made by it. Use “${menu.name}” again for a fresh one.`);
    await requireMenuPlayedHere(interaction, menu, this.services.store.servers);
    await meetRequirement(menu.requires, interaction, context);
    await form.submit(interaction, value, context);
  }

  /** The context menu an interaction runs, if it runs one. */
  private menuOf(interaction: Interaction): BotContextMenu | undefined {
    return interaction.isContextMenuCommand() ? this.menusByKey.get(menuKey(interaction.commandType, interaction.commandName)) : undefined;
  }

  /** A context menu that may open a form: it goes ahead of the queue, as a press that opens a form does. */
  private menuOpensForm(interaction: Interaction): boolean {
    return this.menuOf(interaction)?.opensForm === true;
  }

  private contextFor(interaction: Interaction): HandlerContext {
    const { services } = this;
    // Made on first use: most interactions log nothing, and a child logger per interaction is not free.
    let log: Logger | undefined;
    const logger = () => (log ??= services.log.child({ interactionId: interaction.id, guildId: interaction.guildId, userId: interaction.user.id }));
    const settings = () => this.services.store.servers.settings(interaction.guildId ?? '');
    return {
      ...this.services,
      get log() {
        return logger();
      },
      answer: new Responder(interaction, logger, this.options.deferAfterMs),
      guildId: interaction.guildId ?? '',
      channelId: interaction.channelId ?? '',
      userId: interaction.user.id,
      newSeed: () => services.newSeed(interaction.guildId ?? ''),
      isDispatcher: async () => isDispatcher(interaction, await settings()),
      requireDispatcher: async (action, advice) => {
        const current = await settings();
        if (!isDispatcher(interaction, current)) throw new UserError(dispatcherOnlyText(action, dispatcherRule(interaction, current), advice));
      },
      dispatcherRequirement: async () => dispatcherRequirement(dispatcherRule(interaction, await settings())),
      commands: this.served,
      menus: this.menus,
    };
  }

  private commandFor(interaction: Interaction): BotCommand | undefined {
    if (interaction.isChatInputCommand() || interaction.isAutocomplete()) return this.commands.get(interaction.commandName);
    if (interaction.isMessageComponent() || interaction.isModalSubmit()) return this.commands.get(familyOf(interaction.customId));
    return undefined;
  }

  /**
   * What a component's custom_id stands for, parsed by its command's ids; a refusal when it is none of theirs, or when
   * it does not come from a message that carries it.
   */
  private controlOf(interaction: Interaction, command: BotCommand | undefined): unknown {
    if (!interaction.isMessageComponent() && !interaction.isModalSubmit()) return undefined;
    if (!command?.component) throw new UserError('This button belongs to a feature that no longer exists.');
    if (!command.ids) throw new Error(`/${command.data.name} handles components but has no ids to read them with`);
    const control = command.ids.parse(interaction.customId);
    if (control === null) throw new UserError(outdatedControlText(command.data.name));
    // Only from its own message: a press of a component the message carries, a form opened by one (control-origin.ts).
    const refusal = controlRefusal(interaction, command.ids, control);
    // A refused form is not lost: what was typed comes back with the refusal, to copy into the form as it is now.
    if (refusal !== null) throw new UserError(refusal + typedBack(interaction));
    return control;
  }

  /**
   * Autocomplete cannot be deferred, and a press that opens a form cannot follow a deferral: both go ahead of the
   * queue (they only read) rather than wait in it.
   */
  private skipsTheQueue(interaction: Interaction, command: BotCommand | undefined, control: unknown): boolean {
    if (interaction.isAutocomplete()) return true;
    return control !== undefined && command?.mayOpenForm?.(control) === true;
  }

  /**
   * The first command answered in a server is followed by a public welcome, once per server: the claim is a
   * compare-and-set in the database, so two first commands at once, or a restart, never post a second one. It runs
   * after the answer and outside the turn, and a failure is only logged: the command's own answer never waits for it.
   */
  private async welcomeOnce(interaction: Interaction, context: HandlerContext): Promise<void> {
    if (this.options.welcome === false || !interaction.isChatInputCommand() || !interaction.inGuild()) return;
    try {
      const { servers } = this.services.store;
      const settings = await servers.settings(interaction.guildId);
      if (settings.welcomedAt !== null) return;
      if (!(await servers.claimWelcome(interaction.guildId, this.services.now()))) return;
      // After the /help overview, whose asker just read the first steps, the rest of the table is pointed to /help.
      const startShown = this.commandFor(interaction)?.showsHowToStart?.(interaction) === true;
      await context.answer.followUp(startShown ? shortWelcomeMessage() : welcomeMessage(startSteps(settings)));
    } catch (error) {
      context.log.warn({ err: error }, 'the welcome was not posted');
    }
  }

  /**
   * Handles the interaction to its end: its answer (or its failure's), then the server's welcome. The closing debug
   * line, "interaction handled", says the bot is done with it (test/helpers/bot-log.ts waits for it).
   */
  async handle(interaction: Interaction): Promise<void> {
    const started = performance.now();
    const context = this.contextFor(interaction);
    try {
      await this.answer(interaction, context);
      await this.welcomeOnce(interaction, context);
    } finally {
      if (this.services.log.isLevelEnabled('debug')) {
        context.log.debug({ ms: Math.round((performance.now() - started) * 100) / 100, deferred: context.answer.deferred }, 'interaction handled');
      }
    }
  }

  private async answer(interaction: Interaction, context: HandlerContext): Promise<void> {
    const { answer } = context;
    let endTurn = (): void => {};
    try {
      if (!interaction.inGuild()) throw new UserError('This bot works inside a server, where your sheets live. Use it in a server channel.');
      const menuForm = this.menuFormOf(interaction);
      const command = menuForm ? undefined : this.commandFor(interaction);
      const control = menuForm ? undefined : this.controlOf(interaction, command);
      if (!this.skipsTheQueue(interaction, command, control) && !this.menuOpensForm(interaction)) {
        const claim = { server: interaction.guildId, member: interaction.user.id, heavy: isHeavyWork(interaction, command) || this.menuOf(interaction)?.heavy === true };
        const waitMs = this.turns.expectedWaitMs(claim);
        if (waitMs > ACKNOWLEDGE_IF_WAIT_OVER_MS) answer.acknowledgeNow(`about ${Math.round(waitMs)} ms of interactions ahead of it`);
        endTurn = await this.turns.take(claim);
      }
      // A handler's seeds are drawn synchronously: its server's session is ready before it runs.
      if (!interaction.isAutocomplete() && !command?.rollsNoDice) await this.services.prepareSeeds?.(interaction.guildId);
      if (interaction.isChatInputCommand()) {
        if (!command) throw new UserError(`The command /${interaction.commandName} is not known to this bot version.`);
        await requirePlayedHere(interaction, command, this.services.store.servers);
        const runnable = runnableOf(command, interaction);
        if (!runnable) throw new UserError(`The command /${[command.data.name, subcommandPath(interaction)].join(' ').trim()} is not known to this bot version.`);
        await meetRequirement(runnable.requires, interaction, context);
        await runTyped(runnable, interaction, context);
      } else if (interaction.isContextMenuCommand()) {
        await this.runMenu(interaction, context);
      } else if (menuForm && interaction.isModalSubmit()) {
        await this.submitMenuForm(interaction, menuForm, context);
      } else if (interaction.isAutocomplete()) {
        const suggest = (command && runnableOf(command, interaction)?.autocomplete) ?? command?.autocomplete;
        const unplayed = suggest && command ? await unplayedSuggestions(interaction, command, this.services.store.servers) : null;
        if (unplayed) await interaction.respond(unplayed);
        else if (suggest) await suggest(interaction, context);
        else await interaction.respond([]);
      } else if ((interaction.isMessageComponent() || interaction.isModalSubmit()) && command?.component) {
        await inMessageTurn(interaction, () => command.component!(interaction, control, context));
      }
    } catch (error) {
      await answerFailure(interaction, answer, error, context.log);
    } finally {
      endTurn();
      answer.stop();
    }
  }
}
