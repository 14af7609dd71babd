/** What a command module (commands/<name>.ts) provides, and what its handlers are given. */
import type {
  AutocompleteInteraction,
  Client,
  ChatInputCommandInteraction,
  BaseInteraction,
  ModalMessageModalSubmitInteraction,
  MessageComponentInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { SystemId } from '../engine/systems/index.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import type { ComponentIds } from '../views/component-id.js';
import type { ShardSet } from './client.js';
import type { Responder } from './responder.js';

/** Services shared by every handler. Time and seeds come from here so tests can fix them. */
export interface BotServices {
  store: Store;
  log: Logger;
  now(): Date;
  newSeed(): string;
  /**
   * The shards this process runs (null: every server): background work for a server (expiring its contests) is done
   * by the one process whose shard receives the server's events, so it runs once per server however many processes
   * there are.
   */
  shards: ShardSet | null;
  /** Registers a server's slash list again after its played systems changed (src/discord/slash-list.ts); absent in unit tests. */
  slashList?: SlashListUpdater;
}

/** What became of a server's slash list: registered anew, already as wanted, or refused by Discord (why). */
export type SlashListOutcome = { kind: 'registered'; names: string[] } | { kind: 'unchanged'; names: string[] } | { kind: 'failed'; names: string[]; reason: string };

export interface SlashListUpdater {
  update(guildId: string): Promise<SlashListOutcome>;
  /** The names of a system's own commands (`pool` for d6 pools). */
  commandsOf(system: SystemId): string[];
  /** What every server has, whatever it plays: `sheet`, `config`…, and `roll dice`. */
  commonCommands(): string[];
}

/** One interaction's view of the services: who, where, and a logger that carries them. */
export interface HandlerContext extends BotServices {
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
}

export type ComponentInteraction = MessageComponentInteraction | ModalSubmitInteraction;

/** Whether the interaction came from a message's controls (a button, a menu, or a form opened by one): it can update that message. */
export function fromMessage(interaction: BaseInteraction): interaction is MessageComponentInteraction | ModalMessageModalSubmitInteraction {
  return interaction.isMessageComponent() || (interaction.isModalSubmit() && interaction.isFromMessage());
}

/** `Control`: what the command's component custom_ids stand for, parsed (src/views/component-id.ts). */
export interface BotCommand<Control = unknown> {
  data: { name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  /**
   * The rule systems the command belongs to: it is registered only in servers that play one of them
   * (`/config systems`). Absent: a command of every server (/sheet, /config, /help…).
   */
  systems?: readonly SystemId[];
  /**
   * Subcommands every server gets even where the command's systems are not played (`/roll dice`, `/roll replay`),
   * and the description the command then has.
   */
  everywhere?: { subcommands: readonly string[]; description: string };
  execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void>;
  /** The custom_ids of the command's buttons, menus and forms: `<name>:…`, each family next to its view. */
  ids?: ComponentIds<Control>;
  /** Buttons, selects and modals of the command's `ids` come here, with what their custom_id stands for. */
  component?(interaction: ComponentInteraction, control: Control, context: HandlerContext): Promise<void>;
  /**
   * The subcommands that run heavy work (`import`, `skill set`): a whole file read or written, the notation library.
   * A member runs one of them at a time (src/discord/heavy-work.ts, src/discord/turns.ts).
   */
  heavyWork?: readonly string[];
  /** Whether this press may answer with a form (which must be its first answer, never deferred). */
  mayOpenForm?(control: Control): boolean;
  /**
   * Whether this command's answer just showed the asker, privately, how to start (the /help overview): the server's
   * one-time welcome after it is then the short one, for the rest of the table, not a repeat of those steps.
   */
  showsHowToStart?(interaction: ChatInputCommandInteraction): boolean;
  /** Background work the command needs once the client is ready (e.g. expiring contests); returns its stop. */
  start?(client: Client, services: BotServices): () => void;
}

/** Who made a roll and where, as the roll log stores it: the acting user in this channel of this server. */
export function rolledBy(context: Pick<HandlerContext, 'guildId' | 'channelId' | 'userId'>) {
  return { guildId: context.guildId, channelId: context.channelId, userId: context.userId };
}
