/**
 * "Add to journal" (right-click a message → Apps): the message kept in the session journal as a note, with who wrote
 * it and a link back. Any member at the table may: the journal is the table's story, and the note names who added it.
 */
import type { Message } from 'discord.js';
import { defineContextMenu } from '../../src/discord/command.js';
import { JOURNAL_NOTE_MAX_LENGTH } from '../../src/engine/journal.js';
import { UserError } from '../../src/errors.js';
import { ADDED_TO_JOURNAL_TEXT, NOTHING_TO_JOURNAL_TEXT, journalNoteOf } from '../../src/views/menus.js';
import { privateNote } from '../../src/views/messages.js';

/** Who wrote the message, as the channel shows them: an NPC's webhook name, a member's server name, a user's. */
function authorName(message: Message): string {
  return message.member?.displayName ?? message.author.globalName ?? message.author.username;
}

export const addToJournal = defineContextMenu({
  name: 'Add to journal',
  target: 'message',
  run: async (interaction, context) => {
    const message = interaction.targetMessage;
    const text = journalNoteOf({ author: authorName(message), content: message.content, embeds: message.embeds.map((embed) => embed.toJSON()) }, JOURNAL_NOTE_MAX_LENGTH);
    if (text === null) throw new UserError(NOTHING_TO_JOURNAL_TEXT);
    await context.store.journal.addNote({ guildId: context.guildId, channelId: message.channelId, userId: context.userId, text, messageUrl: message.url });
    await context.answer.reply(privateNote(ADDED_TO_JOURNAL_TEXT));
  },
  help: { audience: 'player', who: 'Anyone at the table', example: 'Right-click a message → Apps → Add to journal' },
});
