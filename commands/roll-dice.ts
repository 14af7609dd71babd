/**
 * `/roll dice expression [label]` (RULES 6.2), mounted by `commands/roll.ts`: generic dice notation, rolled on a
 * stored seed so `/roll replay` gives the same dice. The server's default system plays no part in it.
 */
import type { ChatInputCommandInteraction, SlashCommandSubcommandBuilder } from 'discord.js';
import { rolledBy, type HandlerContext, type Subcommand } from '../src/discord/command.js';
import type { Responder } from '../src/discord/responder.js';
import { DICE_NOTATION_LIMITS, notationDice, notationTotal, type DiceNotationInput } from '../src/engine/dice-notation.js';
import { diceNotationThreadReady, rollDiceNotationOffThread, startDiceNotationThread } from '../src/engine/dice-notation-thread.js';
import { blindMessage } from '../src/views/blind.js';
import { diceReply } from '../src/views/dice.js';

/** The roll log's `system` for these rolls: they belong to no rule system. */
export const DICE_NOTATION_SYSTEM = 'generic';

function build(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return sub
    .setDescription('Roll any dice: 4d6kh3+2, 2d20kl1, 3d6!, 6d6>=6f=1, 3#1d20+5…')
    .addStringOption((o) => o.setName('expression').setDescription('Dice notation, e.g. 4d6kh3+2 or 3#1d20+5 (see docs/dice.md)').setRequired(true))
    .addStringOption((o) => o.setName('label').setDescription('What the roll is for, e.g. Fireball damage').setMaxLength(DICE_NOTATION_LIMITS.labelLength))
    .addBooleanOption((o) => o.setName('blind').setDescription('Only Dispatchers see the dice until one reveals them; the channel sees that you rolled'));
}

/**
 * Before a notation roll: on its first use the notation thread still has to start and load the library, a second
 * or more before the roll comes back, so the interaction is acknowledged at once (privately when the answer will
 * be private) rather than left silent until the responder's deadline steps in; the reply then fills that
 * acknowledgement. The bot's thread stays free meanwhile.
 */
export async function readyDiceNotation(answer: Responder, privately = false): Promise<void> {
  if (diceNotationThreadReady()) return;
  // The thread loads while the acknowledgement travels.
  void startDiceNotationThread();
  await answer.defer({ private: privately });
}

async function rollDice(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const label = interaction.options.getString('label')?.trim() || null;
  const blind = interaction.options.getBoolean('blind') ?? false;
  const input: DiceNotationInput = { expression: interaction.options.getString('expression', true).trim(), label };
  await readyDiceNotation(context.answer);
  const seed = context.newSeed();
  // Checked and rolled before anything is stored: a bad expression is refused privately and leaves no roll.
  const result = await rollDiceNotationOffThread(input, seed);
  const rollId = await context.store.rolls.record({
    ...rolledBy(context),
    kind: 'dice',
    system: DICE_NOTATION_SYSTEM,
    inputs: result.input,
    seed,
    dice: notationDice(result),
    result,
    total: notationTotal(result),
    challengeLevel: null,
    success: null,
    blind,
  });
  if (blind) return void (await context.answer.reply(blindMessage({ id: rollId, kind: 'dice', inputs: result.input }, interaction.user.displayName)));
  await context.answer.reply(diceReply(result, rollId));
}

/** `/roll dice`, mounted by commands/roll.ts. */
export const diceSubcommand: Subcommand = {
  name: 'dice',
  build,
  run: rollDice,
  again: true,
  // The dice-notation library, on its own thread and loaded on first use.
  heavy: true,
  // Dice notation belongs to no rule system: every server has it, whatever it plays.
  everywhere: true,
  help: { audience: 'player', example: '/roll dice expression:4d6kh3+2 label:Strength' },
};
