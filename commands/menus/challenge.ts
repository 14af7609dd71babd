/**
 * "Challenge to a contest" (right-click a member → Apps): `/contest start` against that member, its options asked in
 * a form, then the very start of `/contest start` (commands/contest/start.ts) with its refusals in its words.
 */
import type { ModalSubmitInteraction } from 'discord.js';
import { defineContextMenu, type HandlerContext } from '../../src/discord/command.js';
import { formText } from '../../src/discord/form-text.js';
import { typedBack } from '../../src/discord/form-text.js';
import { UserError } from '../../src/errors.js';
import { challengeFormIds, challengeModal, readChallengeForm, type ChallengeFormValue } from '../../src/views/menus.js';
import { userErrorText } from '../../src/views/messages.js';
import { memberName } from '../contest/message.js';
import { refuseOpponent, startContest } from '../contest/start.js';
import { targetName } from './show-sheet.js';

/** The challenged member as the form's submit finds them: by id, since a form carries no resolved member. */
async function opponentOf(interaction: ModalSubmitInteraction, opponentId: string): Promise<{ id: string; bot: boolean; name: string }> {
  const user = await interaction.client.users.fetch(opponentId);
  const member = await interaction.guild?.members.fetch(opponentId).catch(() => null);
  return { id: user.id, bot: user.bot, name: member?.displayName ?? user.globalName ?? user.username };
}

async function submit(interaction: ModalSubmitInteraction, { opponentId }: ChallengeFormValue, context: HandlerContext): Promise<void> {
  try {
    const form = readChallengeForm(formText(interaction));
    await startContest(context, { opponent: await opponentOf(interaction, opponentId), challengerName: memberName(interaction), ...form });
  } catch (error) {
    // A sent form cannot be reopened as it was: what was typed comes back with the refusal, to copy into a new one.
    if (error instanceof UserError) throw new UserError(userErrorText(error) + typedBack(interaction));
    throw error;
  }
}

export const challengeMenu = defineContextMenu<'user', ChallengeFormValue>({
  name: 'Challenge to a contest',
  target: 'user',
  systems: ['tactalk'],
  opensForm: true,
  run: async (interaction, context) => {
    // Refused before the form opens, so nobody fills in a form for a contest that cannot be.
    refuseOpponent(interaction.targetUser, context);
    // The form's skill menu lists the challenger's active sheet's skills, as /contest start's suggestions do.
    const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/contest start' });
    await context.answer.showModal(challengeModal(interaction.targetUser.id, targetName(interaction), sheet));
  },
  form: { ids: challengeFormIds, submit },
  help: { audience: 'player', example: 'Right-click a player → Apps → Challenge to a contest (then the form: intent, stakes, role, skill)' },
});
