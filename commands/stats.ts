/**
 * /stats: do the dice match their odds? For a member, a sheet, the current or last play session, or the whole
 * server: the successes the stored odds expect against those got, how unusual the difference is (exact), and the
 * D100's faces against an even die, with a chart. Heavy (one at a time per member): the numbers and the chart are
 * worked out on their own thread (src/views/stats-thread.ts). Private unless shared; a shared answer shows only what
 * every member may see, whoever asks.
 */
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { systemName, isSystemId } from '../src/engine/systems/index.js';
import { defineCommand, type HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import type { StatsScope } from '../src/store/stats.js';
import { escapeMarkdown } from '../src/views/format.js';
import { DISCORD_LIMITS, truncate } from '../src/views/limits.js';
import { noStatsNote, statsReply, type StatsScopeView } from '../src/views/stats.js';
import { statsOffThread } from '../src/views/stats-thread.js';

async function run(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const player = interaction.options.getUser('player');
  const sheetTyped = interaction.options.getString('sheet');
  const inSession = interaction.options.getBoolean('session') ?? false;
  const shared = interaction.options.getBoolean('share') ?? false;
  if (player && sheetTyped) throw new UserError('Pick `player:` or `sheet:`, not both: a sheet already names whose rolls they are.');
  const dispatcher = await context.isDispatcher();

  const scope: StatsScope = { guildId: context.guildId };
  const view: StatsScopeView = {};
  if (player) {
    scope.userId = player.id;
    view.userId = player.id;
  }
  if (sheetTyped) {
    const sheet = await context.store.stats.sheet(context.guildId, sheetTyped, context.userId);
    if (sheet === 'ambiguous') throw new UserError(`Several members have a sheet named “${escapeMarkdown(truncate(sheetTyped, 100))}”: pick one from the list \`sheet:\` offers, or use \`player:\`.`);
    // NPC sheets stay with the Dispatchers, as their names do everywhere else.
    if (!sheet || (sheet.ownerId === null && !dispatcher)) {
      throw new UserError(`No sheet named “${escapeMarkdown(truncate(sheetTyped, 100))}” on this server: pick one from the list \`sheet:\` offers (\`/sheet list\` shows yours).`);
    }
    if (sheet.ownerId === null) scope.npc = sheet.name;
    else {
      // The roll log keeps who rolled and in which system, not which sheet: a player's sheet is their rolls in its
      // system (their NPC rolls aside).
      scope.userId = sheet.ownerId;
      scope.system = sheet.system;
      scope.notNpc = true;
    }
    view.sheet = { name: sheet.name, ownerId: sheet.ownerId };
  }
  if (inSession) {
    const session = await context.store.sessions.currentOrLast(context.guildId, 'play');
    if (!session) throw new UserError('No play session yet on this server: a Dispatcher opens one with `/session open`. Leave out `session:` to count every roll.');
    scope.from = session.openedAt;
    scope.to = session.closedAt;
    view.session = { title: session.title, open: session.closedAt === null };
  }

  // A shared answer is posted for everyone: it weighs only what every member may see, even when a Dispatcher asks.
  const seesAll = dispatcher && !shared;
  const rolls = await context.store.stats.rolls(scope, { dispatcher: seesAll });
  if (rolls.weighed.length === 0 && rolls.faces.length === 0) return void (await context.answer.reply(noStatsNote(view)));
  // The chart takes a moment (its thread's first start longer): acknowledged now, privately unless shared, so a late
  // answer never shows a public "thinking" note first.
  await context.answer.defer({ private: !shared });
  const { summary, png } = await statsOffThread(rolls.weighed, rolls.faces);
  await context.answer.reply(statsReply(summary, png, { scope: view, capped: rolls.capped, hiddenLeftOut: !seesAll, shared }));
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  if (focused.name !== 'sheet') return void (await interaction.respond([]));
  const sheets = await context.store.stats.sheetsLike(context.guildId, focused.value, context.userId, DISCORD_LIMITS.autocompleteChoices, await context.isDispatcher());
  await interaction.respond(
    sheets.map((sheet) => ({
      name: truncate(`${sheet.name} · ${sheet.ownerId === null ? 'NPC' : sheet.ownerId === context.userId ? 'yours' : 'a player’s'} · ${isSystemId(sheet.system) ? systemName(sheet.system) : sheet.system}`, DISCORD_LIMITS.choiceName),
      value: String(sheet.id),
    })),
  );
}

export const statsCommand = defineCommand({
  name: 'stats',
  description: 'Do the dice match their odds? Successes expected against got, and the D100 faces, with a chart',
  build: (command) =>
    command
      .addUserOption((o) => o.setName('player').setDescription('Only the rolls of this member (default: everyone’s)'))
      .addStringOption((o) => o.setName('sheet').setDescription('Only the rolls of this sheet').setAutocomplete(true).setMaxLength(100))
      .addBooleanOption((o) => o.setName('session').setDescription('Only the current play session, or the last one (default: all time)'))
      .addBooleanOption((o) => o.setName('share').setDescription('Post it in the channel for everyone (default: only you see it)')),
  run,
  autocomplete,
  heavy: true,
  help: { audience: 'player', example: '/stats player:@Sasha session:true' },
});
