/** What a command module (commands/<name>.ts) provides, and what its handlers are given. */
import {
  ApplicationCommandType,
  ContextMenuCommandBuilder,
  InteractionContextType,
  SlashCommandBuilder,
  SlashCommandSubcommandGroupBuilder,
  type SlashCommandOptionsOnlyBuilder,
  type SlashCommandSubcommandBuilder,
  type AutocompleteInteraction,
  type Client,
  type ChatInputCommandInteraction,
  type ContextMenuCommandInteraction,
  type MessageComponentInteraction,
  type MessageContextMenuCommandInteraction,
  type UserContextMenuCommandInteraction,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
  type ModalSubmitInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { RollInvocation } from '../engine/invocation.js';
import type { SystemId } from '../engine/systems/index.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import type { ComponentIds } from '../views/component-id.js';
import type { Audience } from '../views/help.js';
import type { ShardSet } from './client.js';
import type { Responder } from './responder.js';

/** Services shared by every handler. Time and seeds come from here so tests can fix them. */
export interface BotServices {
  store: Store;
  log: Logger;
  now(): Date;
  /** A new roll's seed for this server: derived from its open session (commit and reveal), or fixed in tests. */
  newSeed(guildId: string): string;
  /** Makes the server's open play session ready, so `newSeed` derives from it without a look-up (absent: fixed seeds). */
  prepareSeeds?(guildId: string): Promise<void>;
  /**
   * The shards this process runs (null: every server): background work for a server (expiring its contests) is done
   * by the one process whose shard receives the server's events, so it runs once per server however many processes
   * there are.
   */
  shards: ShardSet | null;
}

/** One interaction's view of the services: who, where, and a logger that carries them. */
export interface HandlerContext extends Omit<BotServices, 'newSeed'> {
  /** A new roll's seed, for the interaction's server. */
  newSeed(): string;
  guildId: string;
  channelId: string;
  userId: string;
  /** How the handler answers its interaction (src/discord/responder.ts): never through the interaction's own methods. */
  answer: Responder;
  /** Whether the acting member is a Dispatcher of this server (checked on each call, never cached). */
  isDispatcher(): Promise<boolean>;
  /** Refuses (a UserError naming the role a Dispatcher has here) unless the acting member is a Dispatcher. */
  requireDispatcher(action: string, advice?: string): Promise<void>;
  /** "You would need the @Game Master role.": what makes a Dispatcher on this server, to end a refusal with. */
  dispatcherRequirement(): Promise<string>;
  /** The commands this bot serves, as the router has them: /help describes these. */
  commands: readonly BotCommand[];
  /** The context-menu commands it serves (right-click a message or a member → Apps): /help lists these too. */
  menus: readonly BotContextMenu[];
  /**
   * Set when the subcommand running declares `again` (typed, pressed Roll again, or a saved roll rolled): what was
   * typed, and the id its roll is recorded under, known before the roll so the answer can carry its Roll again button.
   */
  invocation?: TypedRoll;
}

/** A roll a member typed (or repeats): its invocation and the id the roll log gives the roll it makes. */
export interface TypedRoll {
  typed: RollInvocation;
  rollId: string;
}

export type ComponentInteraction = MessageComponentInteraction | ModalSubmitInteraction;

/**
 * What the acting member must be to run a subcommand, declared with it and checked by the router before the handler
 * runs (as Sapphire's preconditions): a refusal names the action, e.g. `{ dispatcher: 'call for rolls' }` → "Only a
 * Dispatcher can call for rolls…". What depends on the options (a Dispatcher's `player:`) is checked in the handler.
 */
export type Requirement = { dispatcher: string; advice?: string } | { manageServer: string };

/** How /help shows a subcommand: who uses it and an example (option names checked against the definition by a test). */
export interface HelpEntry {
  audience: Audience;
  example: string;
  /** Who uses it, when it is not simply the audience's. */
  who?: string;
}

/** What every runnable subcommand declares, and a command without subcommands declares of itself. */
export interface Runnable {
  run(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void>;
  /** Its options' suggestions; absent: the command's own `autocomplete`. */
  autocomplete?(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void>;
  /**
   * Heavy work (`/sheet import`): a whole file read or written, or the notation library. A member runs one of them
   * at a time (src/discord/heavy-work.ts, src/discord/turns.ts).
   */
  heavy?: boolean;
  requires?: Requirement;
  /**
   * A roll a member makes themselves, which they may repeat: its roll keeps what was typed, and its answer carries
   * Roll again and Save… (src/discord/roll-again.ts). Not for rolls made by a press, nor for what is not a roll.
   */
  again?: boolean;
  help: HelpEntry;
}

/** One subcommand of a command, declared once: its definition, its handler, and what the router and /help read. */
export interface Subcommand extends Runnable {
  /** `create`, or in a group `skill set`. */
  name: string;
  /** Its description and options; the name is set from `name`. */
  build(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder;
  /** Runs on every server, even where the command's systems are not played (`/roll dice`, `/roll replay`). */
  everywhere?: boolean;
}

/** A runnable path of a command as the router finds it: `skill set`, or '' for a command without subcommands. */
export interface RunnablePath extends Runnable {
  path: string;
  everywhere: boolean;
}

interface CommandParts<Control> {
  /**
   * The rule systems the command belongs to: it runs, and /help lists it, only in servers that play one of them
   * (`/config systems`); elsewhere it answers privately how to turn them on. Absent: a command of every server
   * (/sheet, /config, /help…).
   */
  systems?: readonly SystemId[];
  /** The suggestions of subcommands that declare none. */
  autocomplete?(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void>;
  /** The custom_ids of the command's buttons, menus and forms: `<name>:…`, each family next to its view. */
  ids?: ComponentIds<Control>;
  /** Buttons, selects and modals of the command's `ids` come here, with what their custom_id stands for. */
  component?(interaction: ComponentInteraction, control: Control, context: HandlerContext): Promise<void>;
  /** Whether this press may answer with a form (which must be its first answer, never deferred). */
  mayOpenForm?(control: Control): boolean;
  /**
   * Whether this command's answer just showed the asker, privately, how to start (the /help overview): the server's
   * one-time welcome after it is then the short one, for the rest of the table, not a repeat of those steps.
   */
  showsHowToStart?(interaction: ChatInputCommandInteraction): boolean;
  /** Background work the command needs once the client is ready (e.g. expiring contests); returns its stop. */
  start?(client: Client, services: BotServices): () => void;
  /**
   * The command never rolls, so its server's play session is not made ready before it runs (`/session`, which opens
   * and closes sessions itself: a day session created just before `/session open` would be closed unused).
   */
  rollsNoDice?: boolean;
}

/** `Control`: what the command's component custom_ids stand for, parsed (src/views/component-id.ts). */
export interface BotCommand<Control = unknown> extends CommandParts<Control> {
  data: { name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  /** Every runnable path, in the order the definition lists them. */
  subcommands: readonly RunnablePath[];
  /** What /help says the command does on a server that plays none of its systems, where only its `everywhere` subcommands run. */
  everywhereDescription?: string;
}

interface CommandHead<Control> extends CommandParts<Control> {
  name: string;
  description: string;
}

/** A command with subcommands (and groups of them, named by the first word of a subcommand's `name`). */
export interface CommandWithSubcommands<Control> extends CommandHead<Control> {
  subcommands: readonly Subcommand[];
  /** Each group's description: `{ skill: "Your sheet's skills" }`. */
  groups?: Readonly<Record<string, string>>;
  /** What /help says the command does where only the `everywhere` subcommands run (required when any is). */
  everywhereDescription?: string;
}

/** A command without subcommands (`/log`, `/pool`). */
export interface CommandWithoutSubcommands<Control> extends CommandHead<Control>, Runnable {
  /** Its options. */
  build?(command: SlashCommandBuilder): SlashCommandOptionsOnlyBuilder;
}

function isWithSubcommands<Control>(declared: CommandWithSubcommands<Control> | CommandWithoutSubcommands<Control>): declared is CommandWithSubcommands<Control> {
  return 'subcommands' in declared;
}

/**
 * The command as the router, the global command list, heavy work, /help and docs:commands read it, from its one declaration:
 * the definition is built from the subcommands' own parts, in the order declared.
 */
export function defineCommand<Control = unknown>(declared: CommandWithSubcommands<Control> | CommandWithoutSubcommands<Control>): BotCommand<Control> {
  const data = new SlashCommandBuilder().setName(declared.name).setDescription(declared.description).setContexts(InteractionContextType.Guild);
  const { name, description, ...parts } = declared;
  if (!isWithSubcommands(declared)) {
    const { build, run, autocomplete: _autocomplete, heavy, requires, again, help, ...command } = parts as CommandWithoutSubcommands<Control>;
    build?.(data);
    const path: RunnablePath = { path: '', run, heavy, requires, help, everywhere: false, ...(again ? { again } : {}) };
    if (declared.autocomplete) path.autocomplete = declared.autocomplete;
    return { ...command, data, subcommands: [path] };
  }
  const groups = new Map<string, SlashCommandSubcommandGroupBuilder>();
  const paths = declared.subcommands.map((subcommand): RunnablePath => {
    const [first, second, extra] = subcommand.name.split(' ');
    if (!first || extra !== undefined) throw new Error(`/${name} ${subcommand.name}: a subcommand is one word, or a group and one word`);
    const built = (leaf: string) => (sub: SlashCommandSubcommandBuilder) => subcommand.build(sub.setName(leaf));
    if (second === undefined) data.addSubcommand(built(first));
    else {
      let group = groups.get(first);
      if (!group) {
        const groupDescription = declared.groups?.[first];
        if (!groupDescription) throw new Error(`/${name} ${first}: the group has no description in \`groups\``);
        group = new SlashCommandSubcommandGroupBuilder().setName(first).setDescription(groupDescription);
        groups.set(first, group);
        data.addSubcommandGroup(group);
      }
      group.addSubcommand(built(second));
    }
    const { name: path, build: _build, everywhere, ...runnable } = subcommand;
    return { ...runnable, path, everywhere: everywhere === true };
  });
  if (paths.some((path) => path.everywhere) && !declared.everywhereDescription) throw new Error(`/${name}: subcommands offered everywhere need an everywhereDescription`);
  const { subcommands: _subcommands, groups: _groups, ...command } = parts as CommandWithSubcommands<Control>;
  return { ...command, data, subcommands: paths };
}

/** The runnable path of an interaction, as subcommands are declared: `import`, `skill set`, '' for none. */
export function subcommandPath(interaction: ChatInputCommandInteraction | AutocompleteInteraction): string {
  const { options } = interaction;
  return [options.getSubcommandGroup(false), options.getSubcommand(false)].filter(Boolean).join(' ');
}

/** The declared subcommand an interaction runs; undefined for one the definition no longer has. */
export function runnableOf(command: BotCommand, interaction: ChatInputCommandInteraction | AutocompleteInteraction): RunnablePath | undefined {
  const path = subcommandPath(interaction);
  return command.subcommands.find((candidate) => candidate.path === path);
}

/** Who made a roll and where, as the roll log stores it: the acting user in this channel of this server. */
export function rolledBy(context: Pick<HandlerContext, 'guildId' | 'channelId' | 'userId' | 'invocation'>) {
  // A typed roll keeps what was typed, under the id its answer's Roll again names.
  return { guildId: context.guildId, channelId: context.channelId, userId: context.userId, ...(context.invocation ? { typed: context.invocation } : {}) };
}

/** What a context-menu command acts on: a message (right-click a message → Apps) or a member (right-click a member). */
export type MenuTarget = 'message' | 'user';

interface MenuInteractions {
  message: MessageContextMenuCommandInteraction;
  user: UserContextMenuCommandInteraction;
}

/** A form a context-menu command opens: a custom_id family of its own, and what its submit does. */
export interface MenuForm<Form> {
  ids: ComponentIds<Form>;
  submit(interaction: ModalSubmitInteraction, value: Form, context: HandlerContext): Promise<void>;
}

/**
 * A context-menu command as declared (`defineContextMenu`): Discord shows its `name` under Apps when a member
 * right-clicks a message or a member, and sends no options, only what was clicked.
 */
export interface ContextMenuDeclaration<Target extends MenuTarget, Form> {
  /** As Discord shows it, words and capitals allowed: `Replay this roll`. */
  name: string;
  target: Target;
  /** The rule systems it belongs to: registered only where one is played. Absent: every server. */
  systems?: readonly SystemId[];
  requires?: Requirement;
  run(interaction: MenuInteractions[Target], context: HandlerContext): Promise<void>;
  /**
   * Its first answer may be a form, which cannot follow an acknowledgement: it goes ahead of the queue (it only reads
   * before the form opens) and is never deferred by the router for waiting.
   */
  opensForm?: boolean;
  /** Heavy work, one at a time per member, as a subcommand's `heavy` (Replay this roll may run the notation library). */
  heavy?: boolean;
  form?: MenuForm<Form>;
  help: HelpEntry;
}

/** A context-menu command as the router, the global command list, /help and docs:commands read it. */
export interface BotContextMenu {
  name: string;
  target: MenuTarget;
  systems?: readonly SystemId[];
  requires?: Requirement;
  opensForm: boolean;
  heavy?: boolean;
  form?: MenuForm<unknown>;
  help: HelpEntry;
  data: { name: string; toJSON(): RESTPostAPIContextMenuApplicationCommandsJSONBody };
  run(interaction: ContextMenuCommandInteraction, context: HandlerContext): Promise<void>;
}

/** Discord's command type of a context menu's target (2 a member, 3 a message). */
export function menuCommandType(target: MenuTarget): ApplicationCommandType.User | ApplicationCommandType.Message {
  return target === 'user' ? ApplicationCommandType.User : ApplicationCommandType.Message;
}

/** The context-menu command from its one declaration; registered like slash commands, in each server's list. */
export function defineContextMenu<Target extends MenuTarget, Form = never>(declared: ContextMenuDeclaration<Target, Form>): BotContextMenu {
  const type = menuCommandType(declared.target);
  const data = new ContextMenuCommandBuilder().setName(declared.name).setType(type).setContexts(InteractionContextType.Guild);
  const { run, form, opensForm, ...rest } = declared;
  return {
    ...rest,
    opensForm: opensForm === true,
    ...(form ? { form: form as unknown as MenuForm<unknown> } : {}),
    data: { name: declared.name, toJSON: () => data.toJSON() as RESTPostAPIContextMenuApplicationCommandsJSONBody },
    run: (interaction, context) => {
      // The router picks a menu by its type and name, so a menu of the other target is a bug, not a user's mistake.
      const fits = declared.target === 'user' ? interaction.isUserContextMenuCommand() : interaction.isMessageContextMenuCommand();
      if (!fits) throw new Error(`"${declared.name}" is a ${declared.target} command, run on another target`);
      return run(interaction as MenuInteractions[Target], context);
    },
  };
}
