/**
 * /log: the server's recent rolls, newest first, ten a page (RULES 6.3), shown only to whoever asked. Previous /
 * Next reload the page the button's custom_id names; only the member who ran /log may page it. Secret rolls
 * show their result to Dispatchers only (rechecked on every page).
 */
import { InteractionContextType, MessageFlags, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import type { BotCommand, ComponentInteraction, HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import { LOG_COUNT_MAX, logMessage, logPageLimit, parseLogCustomId, type LogPress, type LogQuery } from '../src/views/log.js';
import { privateNote } from '../src/views/messages.js';

const data = new SlashCommandBuilder()
  .setName('log')
  .setDescription('Recent rolls in this server, newest first')
  .setContexts(InteractionContextType.Guild)
  .addUserOption((o) => o.setName('user').setDescription('Only the rolls of this member (default: everyone’s)'))
  .addIntegerOption((o) =>
    o.setName('count').setDescription(`Page through only the latest this many rolls, 1–${LOG_COUNT_MAX} (default: all)`).setMinValue(1).setMaxValue(LOG_COUNT_MAX),
  );

/** Loads the page a query (and a press, for pages past the first) asks for, and renders it for the acting member. */
async function logPage(context: HandlerContext, query: LogQuery, press?: LogPress) {
  const page = await context.store.rolls.page(context.guildId, {
    userId: query.userId,
    limit: logPageLimit(query),
    ...(press ? { [press.direction === 'older' ? 'before' : 'after']: press.cursor } : {}),
  });
  return logMessage({ query, ...page, canSeeSecrets: await context.isDispatcher() });
}

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const count = interaction.options.getInteger('count');
  if (count !== null && (count < 1 || count > LOG_COUNT_MAX)) throw new UserError(`\`count\` must be from 1 to ${LOG_COUNT_MAX}; ${count} is not.`);
  const query: LogQuery = { viewerId: context.userId, userId: interaction.options.getUser('user')?.id ?? null, count, page: 1 };
  await interaction.reply({ ...(await logPage(context, query)), flags: MessageFlags.Ephemeral });
}

/** Previous / Next: `log:<newer|older>:<viewer>:<user|->:<count|->:<page>:<cursor ms>:<cursor id>`. */
async function component(interaction: ComponentInteraction, context: HandlerContext): Promise<void> {
  const press = parseLogCustomId(interaction.customId);
  if (!press || !interaction.isButton()) throw new UserError('This button is not one the bot made.');
  if (press.query.viewerId !== context.userId) {
    await interaction.reply(privateNote('Only the member who ran this `/log` can page it. Run `/log` to get your own.'));
    return;
  }
  await interaction.update(await logPage(context, press.query, press));
}

export const logCommand: BotCommand = { data, execute, component };
