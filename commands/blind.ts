/**
 * Blind rolls (issue 25 §2): a player's roll whose result only Dispatchers see until one reveals it. The rolls are
 * made by `/roll challenge|linked|dice blind:True` and by a Dispatcher's blind call (`/dispatch … blind:True`); this
 * module answers their message's **Show me** and **Reveal**, and `/blind reveal id:` for a roll whose message is out of
 * reach. Who may read a result is one rule, `isHiddenFrom` (src/engine/blind.ts).
 */
import type { ChatInputCommandInteraction, Message } from 'discord.js';
import { defineCommand, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import type { StoredRoll } from '../src/store/rolls.js';
import { alreadyRevealedNote, blindIds, blindRevealed, blindShownPrivately, notBlindText, revealedMark, type BlindPress, type MessageRow } from '../src/views/blind.js';

/**
 * The name a blind result is shown under: the NPC it was rolled for, else the roller's active Tac Talk sheet now
 * (the roll log keeps no Operator's name), else "Their Operator".
 */
export async function blindWho(context: HandlerContext, roll: StoredRoll): Promise<string> {
  if (roll.npc) return roll.npc;
  if (roll.kind === 'dice') return '';
  const sheet = await context.store.operators.active({ guildId: context.guildId, ownerId: roll.userId }, 'tactalk');
  return sheet?.name ?? 'Their Operator';
}

async function blindRoll(context: HandlerContext, rollId: string): Promise<StoredRoll> {
  const roll = await context.store.rolls.require(context.guildId, rollId);
  if (!roll.blind) throw new UserError(notBlindText(roll.id));
  return roll;
}

/**
 * Puts a blind roll's result in the channel, once: a second press, or a press racing this one, posts nothing. The
 * message pressed (its own, or the request it answered) then says it was revealed, keeping its words.
 */
async function reveal(context: HandlerContext, rollId: string, pressedOn?: Message): Promise<void> {
  const roll = await blindRoll(context, rollId);
  const at = context.now();
  if (!(await context.store.rolls.reveal(context.guildId, roll.id, at))) {
    await context.answer.reply(alreadyRevealedNote((await context.store.rolls.find(context.guildId, roll.id)) ?? roll));
    return;
  }
  try {
    await context.answer.reply(blindRevealed({ ...roll, revealedAt: at }, await blindWho(context, roll), context.userId));
  } catch (error) {
    // A reveal that never reached the channel is taken back, so the next press posts it.
    await context.store.rolls.unreveal(context.guildId, roll.id, at);
    throw error;
  }
  if (!pressedOn) return;
  // The result is in the channel already: a mark that cannot be written is only logged.
  await pressedOn.edit(revealedMark(pressedOn.content, context.userId, pressedOn.components.map((row) => row.toJSON() as MessageRow))).catch((error: unknown) => context.log.warn({ err: error, rollId: roll.id }, 'a revealed blind roll’s message could not be marked'));
}

/** Show me / Reveal on a blind roll's message: Dispatchers only, checked here for every press. */
async function component(interaction: ComponentInteraction, press: BlindPress, context: HandlerContext): Promise<void> {
  if (press.action === 'show') {
    await context.requireDispatcher('see the result of a blind roll', 'The Dispatchers reveal it to the channel when the story allows.');
    const roll = await blindRoll(context, press.rollId);
    await context.answer.reply(blindShownPrivately(roll, await blindWho(context, roll)));
    return;
  }
  await context.requireDispatcher('reveal a blind roll', 'A Dispatcher reveals it when the story allows.');
  await reveal(context, press.rollId, interaction.isMessageComponent() ? interaction.message : undefined);
}

async function revealCommand(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  await reveal(context, interaction.options.getString('id', true));
}

export const blindCommand = defineCommand<BlindPress>({
  name: 'blind',
  description: 'Blind rolls: results only Dispatchers see until one reveals them',
  subcommands: [
    {
      name: 'reveal',
      build: (sub) =>
        sub
          .setDescription('Dispatcher: post a blind roll’s result to this channel, once')
          .addStringOption((o) => o.setName('id').setDescription('The blind roll’s id, from its message or /log').setRequired(true).setMaxLength(20)),
      run: revealCommand,
      requires: { dispatcher: 'reveal a blind roll' },
      help: { audience: 'dispatcher', example: '/blind reveal id:a1b2c3d4' },
    },
  ],
  ids: blindIds,
  component,
});
