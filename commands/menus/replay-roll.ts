/**
 * "Replay this roll" (right-click a message → Apps): `/roll replay` for the roll a message of the bot shows, read
 * from the message itself, so nobody copies an id from a footer.
 */
import type { Message } from 'discord.js';
import { defineContextMenu, type HandlerContext } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { NOT_MY_MESSAGE_TEXT, NO_ROLL_TEXT, otherRollsNote, rollIdsShown } from '../../src/views/menus.js';
import { privateNote } from '../../src/views/messages.js';
import { replayById } from '../roll.js';

/** Words a message could hold that look like roll ids, looked up at most: a long message costs a few reads, no more. */
const CANDIDATES_LOOKED_UP = 20;

/** The bot's own: posted by it, or by its application through a channel webhook (an NPC's voice). */
function isMine(message: Message): boolean {
  const { client } = message;
  return message.author.id === client.user.id || (message.applicationId !== null && message.applicationId === client.application?.id);
}

/** The rolls of this server the message shows, in the order shown; ids the roll log does not know are not rolls. */
async function rollsShown(message: Message, context: HandlerContext): Promise<string[]> {
  const candidates = rollIdsShown({ content: message.content, embeds: message.embeds.map((embed) => embed.toJSON()) }).slice(0, CANDIDATES_LOOKED_UP);
  const found = await Promise.all(candidates.map((id) => context.store.rolls.find(context.guildId, id)));
  return found.flatMap((roll) => (roll ? [roll.id] : []));
}

export const replayThisRoll = defineContextMenu({
  name: 'Replay this roll',
  target: 'message',
  // As /roll replay: the roll may be dice notation, which runs the notation library.
  heavy: true,
  run: async (interaction, context) => {
    const message = interaction.targetMessage;
    if (!isMine(message)) throw new UserError(NOT_MY_MESSAGE_TEXT);
    const [first, ...others] = await rollsShown(message, context);
    if (first === undefined) throw new UserError(NO_ROLL_TEXT);
    await replayById(first, context);
    if (others.length > 0) await context.answer.followUp(privateNote(otherRollsNote(others)));
  },
  help: { audience: 'player', example: 'Right-click a roll’s result (or a contest’s message) → Apps → Replay this roll' },
});
