/**
 * Roll again and saved rolls, where the router meets them: a subcommand that declares `again` runs with what was
 * typed (`context.invocation`), its roll is stored with it under an id known before, and its answer carries the
 * Roll again row. `runInvocation` runs a stored invocation anew through the same handler, from a press (Roll again)
 * or another command (`/roll saved`): the handler reads its options as usual, the sheet as it is now, every check
 * again, and answers through the interaction's own Responder. The one place that turns stored options back into a
 * command's options.
 */
import {
  ApplicationCommandOptionType,
  CommandInteractionOptionResolver,
  type APIMessageTopLevelComponent,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Message,
  type MessageComponentInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { UserError } from '../errors.js';
import { INVOCATION_OPTION_TYPES, type InvocationOption, type RollInvocation } from '../engine/invocation.js';
import { isRollAgainRow, rollAgainRow } from '../views/roll-again.js';
import { DISCORD_LIMITS } from '../views/limits.js';
import { subcommandPath, type HandlerContext, type RunnablePath, type TypedRoll } from './command.js';
import { meetRequirement } from './requirements.js';
import type { AnswerPayload } from './responder.js';
import { requirePlayedHere } from './played-here.js';

const KEPT_TYPES = new Set<number>(INVOCATION_OPTION_TYPES);

/** What a member typed: the path and the leaf's options (strings, numbers, booleans, users by id). */
export function invocationOf(interaction: ChatInputCommandInteraction): RollInvocation {
  let leaf: readonly CommandInteractionOption[] = interaction.options.data;
  while (leaf.length === 1 && (leaf[0]!.type === ApplicationCommandOptionType.Subcommand || leaf[0]!.type === ApplicationCommandOptionType.SubcommandGroup)) {
    leaf = leaf[0]!.options ?? [];
  }
  const options = leaf
    .filter((option) => KEPT_TYPES.has(option.type) && option.value !== undefined && option.value !== null)
    .map((option): InvocationOption => ({ name: option.name, type: option.type as InvocationOption['type'], value: option.value as string | number | boolean }));
  return { command: interaction.commandName, path: subcommandPath(interaction), options };
}

/** The handler's answer, with the row of the roll it made when it made one (and there is room for a row). */
function withRollAgain(payload: AnswerPayload, made: TypedRoll, context: HandlerContext): AnswerPayload {
  const rows = (payload.components ?? []) as unknown[];
  if (rows.length >= DISCORD_LIMITS.actionRows) return payload;
  // The handler may have found the outcome certain and rolled nothing, or what was typed was too long to keep: then
  // there is nothing to repeat.
  if (!context.store.rolls.madeAndKept(made)) return payload;
  return { ...payload, components: [...(rows as NonNullable<AnswerPayload['components']>), rollAgainRow(made.rollId)] };
}

/** Runs the handler with `typed` as what it repeats: its roll is stored under `rollId`, its answer offers Roll again. */
async function runWith(runnable: RunnablePath, interaction: ChatInputCommandInteraction, context: HandlerContext, typed: RollInvocation, rollId: string): Promise<void> {
  const made: TypedRoll = { typed, rollId };
  context.invocation = made;
  context.answer.beforeReply(async (payload) => withRollAgain(payload, made, context));
  await runnable.run(interaction, context);
}

/** The router's run of a typed subcommand: one that declares `again` keeps what was typed. */
export async function runTyped(runnable: RunnablePath, interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  if (!runnable.again) return runnable.run(interaction, context);
  await runWith(runnable, interaction, context, invocationOf(interaction), context.store.rolls.newId());
}

/** The leaf's options as discord.js hands them to a handler: a user option with its user (and member, if present). */
async function optionsOf(base: MessageComponentInteraction | ModalSubmitInteraction | ChatInputCommandInteraction, typed: RollInvocation): Promise<CommandInteractionOption[]> {
  return Promise.all(
    typed.options.map(async (option): Promise<CommandInteractionOption> => {
      if (option.type !== ApplicationCommandOptionType.User) return { name: option.name, type: option.type, value: option.value };
      const id = String(option.value);
      const user = await base.client.users.fetch(id).catch(() => null);
      if (!user) throw new UserError(`This roll names a member (${option.name}) Discord no longer knows. Type the command anew. Nothing was rolled.`);
      const member = await base.guild?.members.fetch(id).catch(() => null);
      return { name: option.name, type: option.type, value: id, user, ...(member ? { member } : {}) };
    }),
  );
}

/** An option as the command defines it (its registered JSON). */
interface DefinedOption {
  name: string;
  type: number;
  required?: boolean;
  options?: DefinedOption[];
  choices?: Array<{ value: string | number }>;
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
}

/**
 * What is wrong with `typed` as the command defines its options now, as Discord would check it when typed; null when
 * nothing is. A stored roll may be from an older definition, and a saved roll from an edited sheet file.
 */
export function invocationProblem(defined: readonly DefinedOption[], typed: RollInvocation): string | null {
  let leaf: readonly DefinedOption[] = defined;
  for (const part of typed.path ? typed.path.split(' ') : []) {
    const next = leaf.find((option) => option.name === part && (option.type === ApplicationCommandOptionType.Subcommand || option.type === ApplicationCommandOptionType.SubcommandGroup));
    if (!next) return 'it is no longer a command of this bot';
    leaf = next.options ?? [];
  }
  const given = new Set<string>();
  for (const option of typed.options) {
    const definition = leaf.find((candidate) => candidate.name === option.name);
    if (!definition || definition.type !== option.type || given.has(option.name)) return `its option \`${option.name}\` is not one the command takes now`;
    given.add(option.name);
    const { value } = option;
    if (typeof value === 'string') {
      const length = [...value].length;
      if ((definition.max_length !== undefined && length > definition.max_length) || (definition.min_length !== undefined && length < definition.min_length)) return `its \`${option.name}\` is not of a length the command takes`;
    }
    if (typeof value === 'number') {
      if (definition.type === ApplicationCommandOptionType.Integer && !Number.isInteger(value)) return `its \`${option.name}\` is not a whole number`;
      if ((definition.max_value !== undefined && value > definition.max_value) || (definition.min_value !== undefined && value < definition.min_value)) return `its \`${option.name}\` is out of the command's range`;
    }
    if (definition.choices && !definition.choices.some((choice) => choice.value === value)) return `its \`${option.name}\` is not one of the command's choices`;
  }
  const missing = leaf.find((option) => option.required === true && !given.has(option.name));
  return missing ? `it lacks the option \`${missing.name}\` the command needs now` : null;
}

type Resolver = new (client: unknown, options: readonly CommandInteractionOption[], resolved: object) => CommandInteractionOptionResolver;

/**
 * `base` as the command interaction `typed` is: its options are the stored ones, and everything else (who, where,
 * the client) is the base interaction's own, read through it.
 */
async function asTyped(base: MessageComponentInteraction | ModalSubmitInteraction | ChatInputCommandInteraction, typed: RollInvocation): Promise<ChatInputCommandInteraction> {
  const leaf = await optionsOf(base, typed);
  const [first, second] = typed.path ? typed.path.split(' ') : [];
  const data: CommandInteractionOption[] =
    first === undefined
      ? leaf
      : second === undefined
        ? [{ name: first, type: ApplicationCommandOptionType.Subcommand, options: leaf }]
        : [{ name: first, type: ApplicationCommandOptionType.SubcommandGroup, options: [{ name: second, type: ApplicationCommandOptionType.Subcommand, options: leaf }] }];
  const options = new (CommandInteractionOptionResolver as unknown as Resolver)(base.client, data, {});
  return Object.create(base, { options: { value: options }, commandName: { value: typed.command } }) as ChatInputCommandInteraction;
}

/**
 * Runs `typed` anew through its handler, as if the acting member had typed it now (the command played here, its
 * requirement met), its roll stored under `rollId`. Refused when the bot no longer has it as a roll to repeat.
 */
export async function runInvocation(base: MessageComponentInteraction | ModalSubmitInteraction | ChatInputCommandInteraction, typed: RollInvocation, rollId: string, context: HandlerContext): Promise<void> {
  const command = context.commands.find((candidate) => candidate.data.name === typed.command);
  const runnable = command?.subcommands.find((candidate) => candidate.path === typed.path && candidate.again === true);
  const shown = `/${[typed.command, typed.path].filter(Boolean).join(' ')}`;
  if (!command || !runnable) throw new UserError(`${shown} is no longer a roll this bot repeats. Type the roll anew. Nothing was rolled.`);
  // Checked as Discord checks what is typed: the handler may count on it (a label's length, a choice).
  const problem = invocationProblem((command.data.toJSON().options ?? []) as DefinedOption[], typed);
  if (problem) throw new UserError(`This roll of ${shown} cannot be rolled again as kept: ${problem}. Type the roll anew (and save it again). Nothing was rolled.`);
  const interaction = await asTyped(base, typed);
  await requirePlayedHere(interaction, command, context.store.servers);
  await meetRequirement(runnable.requires, interaction, context);
  await runWith(runnable, interaction, context, typed, rollId);
}

/** The pressed message's components with its Roll again greyed, as it is once pressed. */
export function rolledAgainComponents(message: Message, rollId: string): APIMessageTopLevelComponent[] {
  return message.components.map((row) => {
    const json = row.toJSON();
    return isRollAgainRow(json as { components?: Array<{ custom_id?: string }> }) ? rollAgainRow(rollId, true) : json;
  });
}
