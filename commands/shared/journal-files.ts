/**
 * A span of the journal written out as its two files (Markdown and the HTML page), with the proof the verifier reads:
 * `/journal export` sends them for any span, and `/session close` with the secret it publishes, so the closed
 * session's journal can be checked at once.
 */
import type { Guild } from 'discord.js';
import type { HandlerContext } from '../../src/discord/command.js';
import { JOURNAL_MAX_ITEMS, journalDocuments, type JournalDocuments } from '../../src/views/journal.js';

/** Members whose names a journal looks up at most; any others read as "member <id>". */
const NAMES_LOOKED_UP = 100;
/** Name look-ups sent to Discord at once. */
const NAME_BATCH = 10;

/** The display names of these members, looked up on Discord in small batches; one not found is left out. */
async function memberNames(guild: Guild | null, ids: Iterable<string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!guild) return names;
  const wanted = [...new Set(ids)].slice(0, NAMES_LOOKED_UP);
  for (let at = 0; at < wanted.length; at += NAME_BATCH) {
    await Promise.all(
      wanted.slice(at, at + NAME_BATCH).map(async (id) => {
        try {
          const member = await guild.members.fetch(id);
          names.set(id, member.displayName);
        } catch {
          // A member who left the server is still in the story, under their id.
        }
      }),
    );
  }
  return names;
}

export interface JournalSpan {
  from: Date;
  to: Date;
  /** How the journal names its span: "Of this session", "Since 2h". */
  spanWords: string;
  /** The `until:` a continuation of a cut journal needs (" until:<iso>"), or ''. */
  untilOption: string;
  includeSecret: boolean;
}

export interface JournalFiles {
  documents: JournalDocuments;
  files: Array<{ attachment: Buffer; name: string }>;
}

/** The span read (bounded), its members named, and written as the two files. */
export async function journalFiles(context: HandlerContext, guild: Guild | null, span: JournalSpan): Promise<JournalFiles> {
  const read = await context.store.journal.span(context.guildId, { from: span.from, to: span.to, limit: JOURNAL_MAX_ITEMS, includeSecret: span.includeSecret });
  const userIds = [
    ...read.rolls.map((roll) => roll.userId),
    ...read.entries.flatMap((entry) => [entry.userId, ...('playerId' in entry.details ? [entry.details.playerId] : []), ...('dispatcherId' in entry.details ? [entry.details.dispatcherId] : [])]),
  ].filter((id): id is string => typeof id === 'string' && id !== '');
  const documents = journalDocuments({
    guildId: context.guildId,
    serverName: guild?.name ?? 'this server',
    from: span.from,
    to: span.to,
    spanWords: span.spanWords.charAt(0).toUpperCase() + span.spanWords.slice(1),
    untilOption: span.untilOption,
    entries: read.entries,
    rolls: read.rolls,
    sessions: read.sessions,
    names: await memberNames(guild, userIds),
    includeSecret: span.includeSecret,
    madeAt: context.now(),
  });
  return {
    documents,
    files: [
      { attachment: Buffer.from(documents.markdown, 'utf8'), name: `${documents.baseName}.md` },
      { attachment: Buffer.from(documents.html, 'utf8'), name: `${documents.baseName}.html` },
    ],
  };
}
