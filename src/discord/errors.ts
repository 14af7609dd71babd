/**
 * The one place that answers a failed interaction. A UserError is shown privately as it is; anything else is
 * logged with the interaction id, and the user gets a short apology carrying that id. It knows whether the
 * interaction was already answered, so it never acknowledges twice.
 */
import type { Interaction } from 'discord.js';
import { isUserError } from '../errors.js';
import type { Logger } from '../log.js';
import { apologyReply, userErrorReply } from '../views/messages.js';

export async function answerFailure(interaction: Interaction, error: unknown, log: Logger): Promise<void> {
  const payload = isUserError(error) ? userErrorReply(error.message) : apologyReply(interaction.id);
  if (isUserError(error)) log.debug({ reason: error.message }, 'user error');
  else log.error({ err: error, interactionId: interaction.id }, 'interaction failed');
  try {
    if (interaction.isAutocomplete()) {
      if (!interaction.responded) await interaction.respond([]);
      return;
    }
    if (!interaction.isRepliable()) return;
    if (interaction.deferred && !interaction.replied) {
      // A deferred reply is already public or private; editing it cannot change that.
      const { flags: _flags, ...edit } = payload;
      await interaction.editReply(edit);
    }
    else if (interaction.replied) await interaction.followUp(payload);
    else await interaction.reply(payload);
  } catch (replyError) {
    log.warn({ err: replyError, interactionId: interaction.id }, 'could not tell the user about a failure');
  }
}
