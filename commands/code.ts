/** /code: die codes and result points (RULES 3, seed 002). */
import { InteractionContextType, SlashCommandBuilder, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { rolledBy, type BotCommand, type HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import { seededRng } from '../src/engine/rng.js';
import { codeCheckDice, DIFFICULTIES, oppositionFrom, resolveCodeCheck, validateCodeCheck, type CodeCheckInput } from '../src/engine/systems/result-points/check.js';
import { parseDieCode, parseDieCodeList } from '../src/engine/systems/result-points/die-code.js';
import type { SystemId } from '../src/engine/systems/index.js';
import { codeCheckReply } from '../src/views/result-points.js';
import { DISCORD_LIMITS } from '../src/views/limits.js';

export const RESULT_POINTS_SYSTEM: SystemId = 'result-points';

const data = new SlashCommandBuilder()
  .setName('code')
  .setDescription('Die codes and result points: roll ND+P six-sided dice')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((sub) =>
    sub
      .setName('roll')
      .setDescription('A quick check: standing, or against a difficulty, a fixed resistance or an opponent')
      .addStringOption((o) => o.setName('code').setDescription('Your die code, e.g. 3D+2').setRequired(true).setMaxLength(20))
      .addStringOption((o) =>
        o.setName('difficulty').setDescription('A number, or very easy / easy / moderate / difficult / very difficult / heroic').setAutocomplete(true).setMaxLength(30),
      )
      .addStringOption((o) => o.setName('resistance').setDescription('Fixed resistance: the opposing rank (3D+2 → 11) or its value').setMaxLength(20))
      .addStringOption((o) => o.setName('opponent').setDescription("Active resistance: the opponent's die code, rolled").setMaxLength(20))
      .addStringOption((o) => o.setName('boost').setDescription("Helpers enhancing: their skill and specialization dice, e.g. 2D+1, 1D").setMaxLength(100))
      .addStringOption((o) => o.setName('penalty').setDescription('Helpers blunting: their dice, subtracted, e.g. 1D').setMaxLength(100)),
  );

/** The check the options describe; every problem is a UserError naming the option. */
export function codeCheckFromOptions(options: {
  code: string;
  difficulty?: string | null;
  resistance?: string | null;
  opponent?: string | null;
  boost?: string | null;
  penalty?: string | null;
}): CodeCheckInput {
  const input: CodeCheckInput = {
    code: parseDieCode(options.code, 'die code'),
    boost: parseDieCodeList(options.boost, 'boost'),
    penalty: parseDieCodeList(options.penalty, 'penalty'),
    against: oppositionFrom(options),
  };
  validateCodeCheck(input);
  return input;
}

async function roll(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const input = codeCheckFromOptions({
    code: interaction.options.getString('code', true),
    difficulty: interaction.options.getString('difficulty'),
    resistance: interaction.options.getString('resistance'),
    opponent: interaction.options.getString('opponent'),
    boost: interaction.options.getString('boost'),
    penalty: interaction.options.getString('penalty'),
  });
  const seed = context.newSeed();
  const result = resolveCodeCheck(input, seededRng(seed));
  const rollId = await context.store.rolls.record({
    ...rolledBy(context),
    kind: 'code',
    system: RESULT_POINTS_SYSTEM,
    inputs: input,
    seed,
    dice: codeCheckDice(result),
    result,
    total: result.total,
    challengeLevel: result.opposition,
    success: result.success,
  });
  await interaction.reply(codeCheckReply(result, interaction.user.displayName, rollId));
}

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sub = interaction.options.getSubcommand(true);
  if (sub === 'roll') return roll(interaction, context);
  throw new UserError(`Unknown subcommand ${sub}.`);
}

/** The difficulty names with their values; a number typed is offered as itself. */
async function autocomplete(interaction: AutocompleteInteraction): Promise<void> {
  const focused = interaction.options.getFocused(true);
  if (focused.name !== 'difficulty') return interaction.respond([]);
  const typed = String(focused.value).trim().toLowerCase();
  const named = DIFFICULTIES.filter((band) => band.name.toLowerCase().includes(typed)).map((band) => ({
    name: `${band.name} (${band.max}; ${band.min}–${band.max})`,
    value: band.name.toLowerCase(),
  }));
  const number = /^\d{1,2}$/.test(typed) ? [{ name: typed, value: typed }] : [];
  await interaction.respond([...number, ...named].slice(0, DISCORD_LIMITS.autocompleteChoices));
}

export const codeCommand: BotCommand = { data, execute, autocomplete };
