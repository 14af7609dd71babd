/**
 * /log: the server's recent rolls, newest first, ten a page (RULES 6.3), shown only to whoever asked. Previous /
 * Next reload the page the button's custom_id names; only the member who ran /log may page it. Secret rolls
 * show their result to Dispatchers only (rechecked on every page). Roll requests a player declined are listed among
 * the rolls by when they were declined, marked as not a roll.
 */
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import type { DeclinedRequest } from '../src/store/roll-requests.js';
import type { RollPage } from '../src/store/rolls.js';
import { LOG_COUNT_MAX, LOG_DECLINES_MAX, logMessage, logIds, logPageLimit, type LogPress, type LogQuery } from '../src/views/log.js';
import { privateNote } from '../src/views/messages.js';

/**
 * The declined roll requests a page lists among its rolls, by when they were declined: from its oldest roll (the
 * whole past on the last page) up to the roll just newer than its newest (no bound on the first page). Each decline
 * so lands on exactly one page, between the rolls made before and after it.
 */
async function declinesOn(context: HandlerContext, query: LogQuery, page: RollPage): Promise<DeclinedRequest[]> {
  const newest = page.rolls[0];
  const oldest = page.rolls.at(-1);
  let to: Date | null = null;
  if (page.newer && newest) {
    const justNewer = await context.store.rolls.page(context.guildId, { userId: query.userId, limit: 1, after: newest });
    to = justNewer.rolls[0]?.createdAt ?? null;
  }
  const from = page.older && oldest ? oldest.createdAt : null;
  return context.store.rollRequests.declined(context.guildId, { playerId: query.userId, from, to, limit: LOG_DECLINES_MAX + 1 });
}

/** Loads the page a query (and a press, for pages past the first) asks for, and renders it for the acting member. */
async function logPage(context: HandlerContext, query: LogQuery, press?: LogPress) {
  const page = await context.store.rolls.page(context.guildId, {
    userId: query.userId,
    limit: logPageLimit(query),
    ...(press ? { [press.direction === 'older' ? 'before' : 'after']: press.cursor } : {}),
  });
  const declines = await declinesOn(context, query, page);
  return logMessage({ query, ...page, declines, canSeeSecrets: await context.isDispatcher() });
}

async function run(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const count = interaction.options.getInteger('count');
  if (count !== null && (count < 1 || count > LOG_COUNT_MAX)) throw new UserError(`\`count\` must be from 1 to ${LOG_COUNT_MAX}; ${count} is not.`);
  const query: LogQuery = { viewerId: context.userId, userId: interaction.options.getUser('user')?.id ?? null, count, page: 1 };
  await context.answer.reply({ ...(await logPage(context, query)), flags: MessageFlags.Ephemeral });
}

/** Previous / Next (src/views/log.ts: logIds). */
async function component(_interaction: ComponentInteraction, press: LogPress, context: HandlerContext): Promise<void> {
  if (press.query.viewerId !== context.userId) {
    await context.answer.reply(privateNote('Only the member who ran this `/log` can page it. Run `/log` to get your own.'));
    return;
  }
  await context.answer.update(await logPage(context, press.query, press));
}

export const logCommand = defineCommand<LogPress>({
  name: 'log',
  description: 'Recent rolls in this server, newest first, and the rolls players declined',
  build: (command) =>
    command
      .addUserOption((o) => o.setName('user').setDescription('Only the rolls of this member (default: everyone’s)'))
      .addIntegerOption((o) =>
        o.setName('count').setDescription(`Page through only the latest this many rolls, 1–${LOG_COUNT_MAX} (default: all)`).setMinValue(1).setMaxValue(LOG_COUNT_MAX),
      ),
  run,
  help: { audience: 'player', example: '/log user:@Sasha count:50' },
  ids: logIds,
  component,
});
