/** "Show sheet" (right-click a member → Apps): that member's sheet, privately, as `/sheet show user:` shows it. */
import type { GuildMember, UserContextMenuCommandInteraction } from 'discord.js';
import { defineContextMenu } from '../../src/discord/command.js';
import { otherSheetsNote } from '../../src/views/menus.js';
import { showSheet } from '../sheet.js';

/** The clicked member as the server names them. */
export function targetName(interaction: UserContextMenuCommandInteraction): string {
  const member = interaction.targetMember;
  if (member && 'displayName' in member) return (member as GuildMember).displayName;
  const nick = member && 'nick' in member ? member.nick : null;
  return nick ?? interaction.targetUser.globalName ?? interaction.targetUser.username;
}

export const showSheetMenu = defineContextMenu({
  name: 'Show sheet',
  target: 'user',
  run: async (interaction, context) => {
    const member = { id: interaction.targetUser.id, label: targetName(interaction) };
    const sheets = await context.store.operators.list({ guildId: context.guildId, ownerId: member.id });
    // Their current sheet, as /sheet show user: shows it; the others are named below it.
    await showSheet(context, member, null, true, (shown) => otherSheetsNote(member.label, sheets.filter((sheet) => sheet.id !== shown.id).map((sheet) => sheet.name)));
  },
  help: { audience: 'player', example: 'Right-click a member → Apps → Show sheet' },
});
