/**
 * The one place that answers a failed interaction. A UserError is shown privately as it is; anything else is
 * logged with the interaction id, and the user gets a short apology carrying that id. It knows how far the
 * interaction was answered (src/discord/responder.ts: it may have deferred it), so it never acknowledges twice.
 */
import type { Interaction } from 'discord.js';
import { isUserError } from '../errors.js';
import type { Logger } from '../log.js';
import { isDatabaseBusyError } from '../store/sqlite-locks.js';
import { databaseTrouble, databaseUnwritable } from '../store/unavailable.js';
import { apologyReply, databaseTroubleReply, databaseUnwritableReply, UNWRITABLE_WORDS, userErrorReply } from '../views/messages.js';
import type { Responder } from './responder.js';

export async function answerFailure(interaction: Interaction, answer: Responder, error: unknown, log: Logger): Promise<void> {
  // A database too busy or out of reach (PostgreSQL: a timeout, no free connection, a lost connection) is neither
  // the user's doing nor a bug: they are told to try again, the operator is warned.
  // A write the database refused (a full disk, a read-only file or server, a failing disk) is the operator's to
  // mend: the user hears that nothing was saved, the log names the database's own code.
  const unwritable = isUserError(error) ? null : databaseUnwritable(error);
  const trouble = isUserError(error) || unwritable ? null : databaseTrouble(error);
  const payload = isUserError(error)
    ? userErrorReply(error)
    : unwritable
      ? databaseUnwritableReply(unwritable.reason)
      : trouble
        ? databaseTroubleReply(trouble)
        : apologyReply(interaction.id);
  // A database held by another program past the bot's wait is the operator's business, not the user's doing.
  if (isDatabaseBusyError(error)) log.warn({ waitedMs: error.waitedMs }, 'database busy: gave up waiting for its lock');
  else if (unwritable) {
    log.error({ err: error, interactionId: interaction.id, code: unwritable.code }, `database cannot be written: ${unwritable.code} (${UNWRITABLE_WORDS[unwritable.reason]}); the write was not saved`);
  }
  else if (trouble) log.warn({ err: error, interactionId: interaction.id, trouble }, trouble === 'busy' ? 'database busy: a wait for it ran out' : 'database unreachable: lost or could not get a connection');
  else if (isUserError(error)) log.debug({ reason: error.message }, 'user error');
  else log.error({ err: error, interactionId: interaction.id }, 'interaction failed');
  try {
    if (interaction.isAutocomplete()) {
      if (!interaction.responded) await interaction.respond([]);
      return;
    }
    await answer.answerAnyhow(payload);
  } catch (replyError) {
    log.warn({ err: replyError, interactionId: interaction.id }, 'could not tell the user about a failure');
  }
}
