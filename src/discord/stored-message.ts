/**
 * Messages that carry stored state: a contest, a roll request or intent, an initiative tracker, a d6 pool roll (its
 * push), a d10 cumulative roll (its steps), an outcome roll with a next table, an attack (its damage), a code check
 * (its points). A press goes load → decide → compare-and-set with its roll → render → announce; what the channel
 * shows must then follow what is stored. When a change is stored but its answer never reached Discord (the answer
 * failed past the retries, the bot died after the commit), the message lags behind the store with controls of a step
 * that is over. The next press on it is the moment to catch up: it redraws the message from the store and posts,
 * once, a result that never reached the channel. Refusing such a press only privately would leave it stuck for good.
 */
import { fromMessage } from './interaction-kinds.js';
import { controlsIn, controlsKey, lastDrawn, type ShownControl } from './drawn-controls.js';
import type { ComponentInteraction, HandlerContext } from './command.js';
import type { AnswerPayload, UpdatePayload } from './responder.js';
import { privateNote } from '../views/messages.js';

/** The controls of the message a press came from, as Discord sent it with the press. */
export function shownControls(interaction: ComponentInteraction): ShownControl[] {
  return fromMessage(interaction) ? controlsIn(interaction.message?.components ?? []) : [];
}

/**
 * Whether the message a press came from shows `payload`'s controls (the same buttons, greyed or not, the same picks
 * in each menu): the state a message is in shows in what it offers. The message is as the press carried it, or as
 * this process drew it after the press. A press from elsewhere (a form opened by a slash command) has no message to
 * compare, so it counts as shown.
 */
export function showsStored(interaction: ComponentInteraction, payload: Pick<UpdatePayload, 'components'>): boolean {
  if (!fromMessage(interaction) || !interaction.message) return true;
  const since = lastDrawn(interaction.message.id);
  const shown = since && since.at >= interaction.createdTimestamp ? since.controls : controlsKey(shownControls(interaction));
  return shown === controlsKey(controlsIn(payload.components ?? []));
}

/**
 * Whether the message, as the presser saw it when pressing, showed `payload`'s controls: a press decided on a
 * message that had fallen behind (another player's change landed first) may mean something else now.
 */
export function pressedOnStored(interaction: ComponentInteraction, payload: Pick<UpdatePayload, 'components'>): boolean {
  if (!fromMessage(interaction)) return true;
  return controlsKey(shownControls(interaction)) === controlsKey(controlsIn(payload.components ?? []));
}

/**
 * Presses on one message are handled one at a time in this process, from the reload to the message's update: the
 * second of two at once then finds the first one's change stored and drawn, and answers from it.
 */
const messageTurns = new Map<string, Promise<void>>();

export async function inMessageTurn<T>(interaction: ComponentInteraction, work: () => Promise<T>): Promise<T> {
  const messageId = fromMessage(interaction) ? interaction.message?.id : undefined;
  if (!messageId) return work();
  const before = messageTurns.get(messageId) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const line = before.then(() => mine);
  messageTurns.set(messageId, line);
  await before;
  try {
    return await work();
  } finally {
    done();
    // Nobody behind: the next press starts a new line.
    if (messageTurns.get(messageId) === line) messageTurns.delete(messageId);
  }
}

/** A result that is its own message in the channel, under the id of the roll it shows. */
export interface PostedResult {
  rollId: string;
  payload: AnswerPayload;
}

/**
 * Posts a result that is its own message, once: its post is marked as begun in the store, then the message is
 * recorded on its roll. A post begun and never recorded (the bot died after Discord took it) is looked for among the
 * channel's latest messages before it is posted again.
 */
export async function postResult(interaction: ComponentInteraction, context: HandlerContext, result: PostedResult): Promise<void> {
  const { rolls } = context.store;
  const standing = await rolls.posting(context.guildId, result.rollId);
  if (standing && 'messageId' in standing) return;
  if (standing) {
    const found = await findPosted(interaction, context, result.rollId);
    if (found) return void (await rolls.markPosted(context.guildId, result.rollId, standing.pending, found));
  }
  const mark = await rolls.claimPosting(context.guildId, result.rollId, standing?.pending ?? null);
  // Another press marked it just now: that one posts it.
  if (!mark) return;
  const posted = await context.answer.followUp(result.payload);
  await rolls.markPosted(context.guildId, result.rollId, mark, posted.id);
}

/** The bot's message among the channel's latest that shows `rollId` as its own roll (the footer `rollFooter` writes). */
async function findPosted(interaction: ComponentInteraction, context: HandlerContext, rollId: string): Promise<string | null> {
  try {
    const channel = interaction.channel;
    if (!channel?.isTextBased()) return null;
    const latest = await channel.messages.fetch({ limit: LOOKED_BACK });
    const own = latest.find((message) => message.author.id === interaction.client.user.id && message.embeds.some((embed) => embed.footer?.text.startsWith(`Roll ${rollId} ·`)));
    return own?.id ?? null;
  } catch (error) {
    // Without Read Message History the post is made again: a second copy rather than none.
    context.log.warn({ err: error, rollId }, 'could not look for a result whose post was begun');
    return null;
  }
}

/** How far back a post begun by a bot that died is looked for: a press comes soon after, or the table moved on. */
const LOOKED_BACK = 50;

/** Of `results` (stored), those not known to be in the channel. */
export async function unposted(context: HandlerContext, results: readonly PostedResult[]): Promise<PostedResult[]> {
  const lost: PostedResult[] = [];
  for (const result of results) {
    const standing = await context.store.rolls.posting(context.guildId, result.rollId);
    if (!standing || 'pending' in standing) lost.push(result);
  }
  return lost;
}

/** Said when a press brought its message up to date: what the presser saw was behind. */
const CAUGHT_UP = 'The message had fallen behind; it now shows this as it stands.';

/**
 * A press whose change was made already (by an earlier try whose answer was lost, or by another press): `note` says
 * so privately; if the message lags behind the store it is redrawn as `payload` (the stored state) first; and each of
 * `lost`, stored results never posted, is posted now, once.
 */
export async function answerFromStore(interaction: ComponentInteraction, context: HandlerContext, payload: UpdatePayload, note: string, lost: readonly PostedResult[] = []): Promise<void> {
  if (!showsStored(interaction, payload)) {
    // A lost result goes first: the message, once redrawn, says it was made.
    if (lost.length > 0) await context.answer.holdMessage();
    for (const result of lost) await postResult(interaction, context, result);
    await context.answer.update(payload);
    await context.answer.followUp(privateNote(`${note} ${CAUGHT_UP}`));
    return;
  }
  await context.answer.reply(privateNote(note));
  for (const result of lost) await postResult(interaction, context, result);
}
