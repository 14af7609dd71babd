/**
 * /session: play sessions and their committed secrets (commit and reveal, docs/fair-dice.md). A Dispatcher opens a
 * play session, which publishes the hash of the secret every later roll's seed derives from, and closes it, which
 * publishes the secret; without one, each day (UTC) is a session of its own. Anyone may see the current session.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, type HandlerContext } from '../src/discord/command.js';
import { UserError } from '../src/errors.js';
import { SESSION_TITLE_MAX } from '../src/store/sessions.js';
import { journalExportText } from '../src/views/journal.js';
import { noPlaySessionText, playSessionOpenText, sessionClosedReply, sessionName, sessionOpenedReply, sessionShowReply } from '../src/views/sessions.js';
import { journalFiles } from './shared/journal-files.js';

async function open(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const title = interaction.options.getString('title', true).trim();
  if (title.length === 0) throw new UserError('Give the session a title, e.g. `/session open title:The docks heist`.');
  if (title.length > SESSION_TITLE_MAX) throw new UserError(`A session's title may be up to ${SESSION_TITLE_MAX} characters; this one has ${title.length}. Shorten it.`);
  const { opened, closed } = await context.store.sessions.openPlay(context.guildId, { title, channelId: context.channelId, openedBy: context.userId, now: context.now() });
  await context.answer.reply(sessionOpenedReply(opened, closed));
}

/** Closes the open session and publishes its secret, once the caller has checked it is the kind it closes. */
async function closeAndReveal(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const closed = await context.store.sessions.closeOpen(context.guildId, context.now());
  // Closed by another interaction a moment ago: that one published the secret.
  if (!closed) throw new UserError('The session was closed a moment ago, and its secret published; `/session show` shows it.');
  const rolls = await context.store.sessions.rollCount(context.guildId, closed.id);
  // The session's journal goes with its secret, so the table can check its dice at once, without an export of its own.
  const closedAt = closed.closedAt ?? context.now();
  const spanWords = `of ${sessionName(closed)}`;
  const { documents, files } = await journalFiles(context, interaction.guild, { from: closed.openedAt, to: closedAt, spanWords, untilOption: ` until:${closedAt.toISOString()}`, includeSecret: false });
  await context.answer.reply({ ...sessionClosedReply(closed, rolls, journalExportText(documents, spanWords, false)), files });
}

async function close(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const current = await context.store.sessions.current(context.guildId);
  if (current?.kind !== 'play') throw new UserError(noPlaySessionText(current));
  await closeAndReveal(interaction, context);
}

async function reveal(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const current = await context.store.sessions.current(context.guildId);
  if (!current) throw new UserError(noPlaySessionText(null));
  if (current.kind === 'play') throw new UserError(playSessionOpenText(current));
  await closeAndReveal(interaction, context);
}

async function show(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  // Shown even before the day's first roll: its commitment is published before any of its dice.
  const current = await context.store.sessions.prepare(context.guildId, context.now());
  const [rolls, lastClosed] = await Promise.all([context.store.sessions.rollCount(context.guildId, current.id), context.store.sessions.lastClosed(context.guildId)]);
  await context.answer.reply(sessionShowReply(current, rolls, lastClosed, interaction.options.getBoolean('share') ?? false));
}

export const sessionCommand = defineCommand({
  name: 'session',
  description: 'Play sessions: the hash of the secret the dice derive from, published before and revealed after',
  // It opens, closes and shows sessions itself; a day session made ready before `/session open` would close unused.
  rollsNoDice: true,
  subcommands: [
    {
      name: 'open',
      build: (sub) =>
        sub
          .setDescription("Open a play session: publishes the hash of the secret its rolls' seeds derive from")
          .addStringOption((o) => o.setName('title').setDescription("The session's title").setRequired(true).setMaxLength(SESSION_TITLE_MAX)),
      run: open,
      requires: { dispatcher: 'open a play session' },
      help: { audience: 'dispatcher', example: '/session open title:The docks heist' },
    },
    {
      name: 'close',
      build: (sub) => sub.setDescription('Close the play session and publish its secret and journal, so anyone can check its rolls'),
      run: close,
      // The session's journal is read and written out with it.
      heavy: true,
      requires: { dispatcher: 'close a play session' },
      help: { audience: 'dispatcher', example: '/session close' },
    },
    {
      name: 'reveal',
      build: (sub) => sub.setDescription("Close today's day session early and publish its secret and journal"),
      run: reveal,
      heavy: true,
      requires: { dispatcher: "reveal a day session's secret" },
      help: { audience: 'dispatcher', example: '/session reveal' },
    },
    {
      name: 'show',
      build: (sub) =>
        sub
          .setDescription('The current session, its commitment and rolls so far, and the last published secret')
          .addBooleanOption((o) => o.setName('share').setDescription('Post it to the channel (default: only you see it)')),
      run: show,
      help: { audience: 'player', example: '/session show share:true' },
    },
  ],
});
