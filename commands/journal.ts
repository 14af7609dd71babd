/**
 * /journal: the table's story kept (issue 25 §4). `export` writes a span of it (since a scene marker, this session,
 * today, a while back or a date) as Markdown and as a self-contained HTML page, each with the proof the verifier
 * checks; secret and blind rolls stay out unless a Dispatcher asks, and then only they see the files. `scene` is a
 * Dispatcher's marker in the channel a journal can start from; `note` keeps a line of the story by hand.
 */
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, type HandlerContext } from '../src/discord/command.js';
import { JOURNAL_NOTE_MAX_LENGTH, JOURNAL_SCENE_TITLE_MAX_LENGTH, parseJournalTime, startOfUtcDay } from '../src/engine/journal.js';
import { UserError } from '../src/errors.js';
import { journalExportText, journalTimeChoices, sceneMarkerMessage } from '../src/views/journal.js';
import { privateNote, publicNote } from '../src/views/messages.js';
import { journalFiles } from './shared/journal-files.js';

const TIME_FORMS = '`2h`, `3d`, `1w`, `today`, `this session`, a date such as `2026-11-27` or `2026-11-27T19:30`, or a scene from the list';

interface SpanEnd {
  at: Date;
  words: string;
  /** A closed session ends there: the span stops with it unless `until:` says otherwise. */
  endsAt?: Date;
}

async function resolveTime(context: HandlerContext, typed: string, option: 'since' | 'until'): Promise<SpanEnd> {
  const now = context.now();
  const time = parseJournalTime(typed);
  if (time?.kind === 'scene' || time === null) {
    const scene = time ? await context.store.journal.scene(context.guildId, time.id) : (await context.store.journal.scenes(context.guildId, 1, typed))[0];
    if (!scene) {
      const shown = typed.trim().slice(0, 60);
      throw new UserError(
        time ? `\`${option}:\` names a scene marker this server does not have. Pick a scene from the list, or type ${TIME_FORMS}.` : `\`${option}:\` reads ${TIME_FORMS}; “${shown}” is none of those, nor the title of a scene marker.`,
      );
    }
    return { at: scene.createdAt, words: `the scene “${scene.title}”` };
  }
  switch (time.kind) {
    case 'session': {
      const session = await context.store.sessions.currentOrLast(context.guildId);
      if (!session) throw new UserError(`This server has had no play session yet, so \`${option}: this session\` has nothing to start from. Type \`today\` or \`2h\` instead.`);
      const name = session.kind === 'play' ? (session.title ? `session ${session.id} (“${session.title}”)` : `session ${session.id}`) : `the day session of ${session.openedAt.toISOString().slice(0, 10)}`;
      return { at: option === 'until' ? (session.closedAt ?? now) : session.openedAt, words: name, ...(session.closedAt ? { endsAt: session.closedAt } : {}) };
    }
    case 'today':
      return { at: startOfUtcDay(now), words: 'today' };
    case 'ago':
      return { at: new Date(now.getTime() - time.ms), words: `the last ${time.typed}` };
    case 'at':
      return { at: time.date, words: time.date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' };
  }
}

async function exportJournal(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const includeSecret = interaction.options.getBoolean('include_secret') ?? false;
  if (includeSecret) await context.requireDispatcher('include secret and blind rolls in a journal', 'Leave `include_secret` out for the journal everyone may see.');
  const sinceTyped = interaction.options.getString('since');
  const untilTyped = interaction.options.getString('until');
  const now = context.now();
  const since = sinceTyped !== null ? await resolveTime(context, sinceTyped, 'since') : await defaultSince(context);
  const until = untilTyped !== null ? await resolveTime(context, untilTyped, 'until') : since.endsAt ? { at: since.endsAt, words: '' } : { at: now, words: '' };
  if (until.at.getTime() <= since.at.getTime()) {
    throw new UserError(`\`until:\` (${until.at.toISOString()}) must come after \`since:\` (${since.at.toISOString()}): the journal runs from since to until.`);
  }
  const spanWords = `${sinceTyped === null && since.words !== 'today' ? 'of' : 'since'} ${since.words}${untilTyped !== null ? ` until ${until.words}` : ''}`;
  const { documents, files } = await journalFiles(context, interaction.guild, {
    from: since.at,
    to: until.at,
    spanWords,
    untilOption: untilTyped !== null || since.endsAt ? ` until:${until.at.toISOString()}` : '',
    includeSecret,
  });
  const note = journalExportText(documents, spanWords, includeSecret);
  await context.answer.reply({ ...(includeSecret ? privateNote(note) : publicNote(note)), files });
}

/** With no `since:`: the current or last play session, else today. */
async function defaultSince(context: HandlerContext): Promise<SpanEnd> {
  return (await context.store.sessions.currentOrLast(context.guildId)) ? resolveTime(context, 'this session', 'since') : resolveTime(context, 'today', 'since');
}

async function setScene(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const title = interaction.options.getString('title', true).trim();
  if (title.length === 0) throw new UserError('A scene needs a title: say where or when it is, e.g. `title: The docks at night`.');
  if (title.length > JOURNAL_SCENE_TITLE_MAX_LENGTH) throw new UserError(`A scene's title may be at most ${JOURNAL_SCENE_TITLE_MAX_LENGTH} characters; yours has ${title.length}.`);
  // Stored before it is posted, at the moment it was asked for: a journal since this scene holds what follows it.
  const scene = await context.store.journal.addScene({ guildId: context.guildId, channelId: context.channelId, userId: context.userId, title, at: context.now() });
  const messageId = await context.answer.replyWithMessageId(sceneMarkerMessage(title));
  if (messageId) await context.store.journal.linkScene(context.guildId, scene.id, `https://discord.com/channels/${context.guildId}/${context.channelId}/${messageId}`);
}

async function addNote(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const text = interaction.options.getString('text', true).trim();
  if (text.length === 0) throw new UserError('A note needs some text: what happened, in a sentence.');
  if (text.length > JOURNAL_NOTE_MAX_LENGTH) throw new UserError(`A note may be at most ${JOURNAL_NOTE_MAX_LENGTH} characters; yours has ${text.length}.`);
  await context.store.journal.addNote({ guildId: context.guildId, channelId: context.channelId, userId: context.userId, text });
  await context.answer.reply(privateNote('📝 Added to the journal. `/journal export` shows it in its place in the story.'));
}

async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const typed = String(interaction.options.getFocused());
  const [scenes, session] = await Promise.all([context.store.journal.scenes(context.guildId, 25, parseJournalTime(typed) ? '' : typed), context.store.sessions.currentOrLast(context.guildId)]);
  await interaction.respond(journalTimeChoices(scenes, session, typed));
}

const timeOption = (option: 'since' | 'until', description: string) => (o: import('discord.js').SlashCommandStringOption) =>
  o.setName(option).setDescription(description).setAutocomplete(true).setMaxLength(100);

export const journalCommand = defineCommand({
  name: 'journal',
  description: "The table's story: intents, calls, declines, rolls, contests, scenes and notes",
  subcommands: [
    {
      name: 'export',
      build: (sub) =>
        sub
          .setDescription('Download a span of the story as Markdown and as a web page, with proof of every roll')
          .addStringOption(timeOption('since', 'Where it starts: a scene, this session, today, 2h, 3d, 2026-11-27 (default: this session)'))
          .addStringOption(timeOption('until', 'Where it ends, in the same forms (default: now, or the end of the session)'))
          .addBooleanOption((o) => o.setName('include_secret').setDescription('Dispatcher: include secret and blind rolls; only you see the files')),
      run: exportJournal,
      // A span of up to 5,000 entries and rolls read, written out as two files and sent.
      heavy: true,
      help: { audience: 'player', example: '/journal export since:2h' },
    },
    {
      name: 'scene',
      build: (sub) =>
        sub
          .setDescription('Dispatcher: mark a new scene in the channel; a journal can start from it')
          .addStringOption((o) => o.setName('title').setDescription('The scene, e.g. The docks at night').setRequired(true).setMaxLength(JOURNAL_SCENE_TITLE_MAX_LENGTH)),
      run: setScene,
      requires: { dispatcher: 'mark a scene', advice: 'Anyone can add a note with `/journal note`.' },
      help: { audience: 'dispatcher', example: '/journal scene title:The docks at night' },
    },
    {
      name: 'note',
      build: (sub) =>
        sub
          .setDescription('Add a line to the story by hand')
          .addStringOption((o) => o.setName('text').setDescription('What happened').setRequired(true).setMaxLength(JOURNAL_NOTE_MAX_LENGTH)),
      run: addNote,
      help: { audience: 'player', example: '/journal note text:Troy pockets the keycard' },
    },
  ],
  autocomplete,
});
