/**
 * What kind of interaction an answer is for, read from discord.js's interaction: the responder (which call answers
 * it), the stored messages (which message a press came from) and the commands all ask it, so it sits below them.
 */
import type { BaseInteraction, MessageComponentInteraction, ModalMessageModalSubmitInteraction } from 'discord.js';

/** Whether the interaction came from a message's controls (a button, a menu, or a form opened by one): it can update that message. */
export function fromMessage(interaction: BaseInteraction): interaction is MessageComponentInteraction | ModalMessageModalSubmitInteraction {
  return interaction.isMessageComponent() || (interaction.isModalSubmit() && interaction.isFromMessage());
}
