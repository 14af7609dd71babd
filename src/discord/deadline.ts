/**
 * Discord forgets an interaction that gets no first answer within 3 seconds. Handlers answer in milliseconds, but
 * one that waits for a locked database (src/store/database.ts waits up to 10 s) would miss that deadline. The guard
 * acknowledges for it after ~2 s (deferReply, or deferUpdate where the handler may edit the message it came from),
 * and turns the handler's own later answer into what fits after that acknowledgement:
 *
 *     handler calls          after the guard's deferReply              after the guard's deferUpdate
 *     reply (public)         editReply (fills the "is thinking" note)  followUp (a new message)
 *     reply (ephemeral)      deleteReply + ephemeral followUp          ephemeral followUp
 *     update                 editReply                                 editReply (edits the message)
 *     deferReply / Update    nothing more                              nothing more
 *     showModal              a private "press again": a form cannot follow an acknowledgement
 *
 * It never acknowledges twice: the calls are wrapped on the interaction, and a handler's call marks the
 * acknowledgement as begun before its request leaves (discord.js sets `replied` / `deferred` only once Discord has
 * answered), so the guard's timer, finding it begun, stays out. Autocomplete has no deferral and is left alone.
 */
import {
  InteractionResponseType,
  MessageFlags,
  MessageFlagsBitField,
  type Interaction,
  type InteractionReplyOptions,
  type Message,
  type MessageFlagsResolvable,
  type RepliableInteraction,
} from 'discord.js';
import { fromMessage } from './command.js';
import type { Logger } from '../log.js';
import { formTooLateReply } from '../views/messages.js';

/** When the guard acknowledges: 2 s after the interaction arrived leaves a second for the request to reach Discord. */
export const DEFAULT_DEFER_AFTER_MS = 2000;

interface Deferral {
  kind: 'reply' | 'update';
  ephemeral: boolean;
  by: 'guard' | 'handler';
  /** Settles when Discord has answered the deferral: true when it was accepted. */
  ready: Promise<boolean>;
}

interface Tracking {
  /** An acknowledgement (reply, update, modal or deferral) has been sent or is on its way. */
  begun: boolean;
  deferral?: Deferral;
  /** The answer that follows the guard's deferral has been sent (or is on its way). */
  followedUp: boolean;
  /** The handler asked for its own deferReply after the guard's deferral: how its editReply should come out. */
  handlerWants?: { ephemeral: boolean };
  /** Where the handler's `@original` now is, when its answer had to become a follow-up message. */
  original?: string;
}

const tracking = new WeakMap<Interaction, Tracking>();

/** What reply / update / followUp take, as far as the guard looks into it. */
type Payload = string | { flags?: MessageFlagsResolvable; ephemeral?: boolean; withResponse?: boolean; fetchReply?: boolean };
type Method = (...args: unknown[]) => Promise<unknown>;

function flagsOf(payload: Payload): MessageFlagsBitField {
  return new MessageFlagsBitField(typeof payload === 'string' ? 0 : (payload.flags ?? 0));
}

function isEphemeral(payload: Payload | undefined): boolean {
  if (payload === undefined || typeof payload === 'string') return false;
  return payload.ephemeral === true || flagsOf(payload).has(MessageFlags.Ephemeral);
}

/** A reply's options as an edit: visibility is fixed by then, and an edit returns the message itself. */
function asEdit(payload: Payload): Record<string, unknown> {
  if (typeof payload === 'string') return { content: payload };
  const { flags: _flags, ephemeral: _ephemeral, withResponse: _withResponse, fetchReply: _fetchReply, ...rest } = payload;
  const flags = flagsOf(payload).remove(MessageFlags.Ephemeral);
  return flags.bitfield ? { ...rest, flags: flags.bitfield } : rest;
}

function asFollowUp(payload: Payload, ephemeral = isEphemeral(payload)): Record<string, unknown> {
  if (typeof payload === 'string') return { content: payload, ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}) };
  const { flags: _flags, ephemeral: _ephemeral, withResponse: _withResponse, fetchReply: _fetchReply, ...rest } = payload;
  const flags = flagsOf(payload);
  if (ephemeral) flags.add(MessageFlags.Ephemeral);
  else flags.remove(MessageFlags.Ephemeral);
  return flags.bitfield ? { ...rest, flags: flags.bitfield } : rest;
}

/** What reply / update return, shaped as the caller asked (`withResponse` → a callback response with the message). */
function asResult(interaction: RepliableInteraction, payload: Payload, message: Message): unknown {
  if (typeof payload !== 'string' && payload.withResponse) {
    return {
      interaction: { id: interaction.id, type: interaction.type, responseMessageId: message.id, responseMessageLoading: false, responseMessageEphemeral: message.flags.has(MessageFlags.Ephemeral) },
      resource: { type: InteractionResponseType.ChannelMessageWithSource, message, activityInstance: null },
    };
  }
  return message;
}

/** The calls as discord.js makes them, bound before the guard wraps them. */
interface Originals {
  reply: Method;
  update?: Method;
  deferReply: Method;
  deferUpdate?: Method;
  showModal?: Method;
  editReply: Method;
  followUp: Method;
  deleteReply: Method;
  fetchReply: Method;
}

/** Sends `payload` as the answer that follows a deferral: see the table at the top of this file. */
async function answerAfterDeferral(originals: Originals, deferral: Pick<Deferral, 'kind' | 'ephemeral'>, payload: Payload, as: 'reply' | 'update'): Promise<Message> {
  if (deferral.kind === 'update') {
    // After deferUpdate, @original is the message the component sits on.
    return (as === 'update' ? originals.editReply(asEdit(payload)) : originals.followUp(asFollowUp(payload))) as Promise<Message>;
  }
  if (isEphemeral(payload) && !deferral.ephemeral) {
    // A public "is thinking" note cannot turn private: it goes, and the answer comes privately.
    await originals.deleteReply();
    return originals.followUp(asFollowUp(payload, true)) as Promise<Message>;
  }
  return originals.editReply(asEdit(payload)) as Promise<Message>;
}

function originalsOf(interaction: RepliableInteraction): Originals {
  const target = interaction as unknown as Record<string, Method | undefined>;
  const bind = (name: string): Method | undefined => {
    const method = target[name];
    return typeof method === 'function' ? method.bind(interaction) : undefined;
  };
  return {
    reply: bind('reply')!,
    update: bind('update'),
    deferReply: bind('deferReply')!,
    deferUpdate: bind('deferUpdate'),
    showModal: bind('showModal'),
    editReply: bind('editReply')!,
    followUp: bind('followUp')!,
    deleteReply: bind('deleteReply')!,
    fetchReply: bind('fetchReply')!,
  };
}

const originalsByInteraction = new WeakMap<Interaction, Originals>();

const ACKNOWLEDGING = ['reply', 'update', 'deferReply', 'deferUpdate', 'showModal'] as const;
const AFTER_DEFERRAL = ['editReply', 'followUp', 'deleteReply', 'fetchReply'] as const;

export interface DeadlineGuard {
  /** The handler is done: no deferral from now on. */
  stop(): void;
  /** Defers at once (unless something acknowledged already): the handler is known to start late. */
  acknowledgeNow(why: string): void;
  /** Whether the guard acknowledged the interaction for the handler. */
  readonly deferred: boolean;
}

/**
 * Watches one interaction while its handler runs: if nothing acknowledged it `afterMs` after it arrived, defers it.
 */
/** `log` is asked for only when there is something to log. */
export function guardDeadline(interaction: Interaction, options: { afterMs?: number; log: () => Logger }): DeadlineGuard {
  if (!interaction.isRepliable()) return { stop() {}, acknowledgeNow() {}, deferred: false };
  const { log } = options;
  const afterMs = options.afterMs ?? DEFAULT_DEFER_AFTER_MS;
  const originals = originalsOf(interaction);
  const state: Tracking = { begun: false, followedUp: false };
  tracking.set(interaction, state);
  originalsByInteraction.set(interaction, originals);
  const guardDeferral = (): Deferral | undefined => (state.deferral?.by === 'guard' ? state.deferral : undefined);
  /** The handler's `@original` (its answer may have become a follow-up). */
  const redirected = (message: unknown): unknown => (state.original && (message === undefined || message === '@original') ? state.original : message);

  const wrapped: Record<string, Method> = {
    reply: async (payload) => {
      const deferral = guardDeferral();
      if (!deferral || state.followedUp) {
        state.begun = true;
        return originals.reply(payload);
      }
      state.followedUp = true;
      if (!(await deferral.ready)) return originals.reply(payload);
      const message = await answerAfterDeferral(originals, deferral, payload as Payload, 'reply');
      if (deferral.kind === 'reply' && isEphemeral(payload as Payload) && !deferral.ephemeral) state.original = message.id;
      return asResult(interaction, payload as Payload, message);
    },
    update: async (payload) => {
      const deferral = guardDeferral();
      if (!deferral || state.followedUp) {
        state.begun = true;
        return originals.update!(payload);
      }
      state.followedUp = true;
      if (!(await deferral.ready)) return originals.update!(payload);
      return asResult(interaction, payload as Payload, await answerAfterDeferral(originals, deferral, payload as Payload, 'update'));
    },
    deferReply: async (payload) => {
      const deferral = guardDeferral();
      if (!deferral) {
        state.begun = true;
        const sent = originals.deferReply(payload);
        state.deferral = { kind: 'reply', ephemeral: isEphemeral(payload as Payload), by: 'handler', ready: sent.then(() => true, () => false) };
        return sent;
      }
      if (!(await deferral.ready)) return originals.deferReply(payload);
      // Its answer will come through editReply; it should look as a reply with these options would.
      state.handlerWants = { ephemeral: isEphemeral(payload as Payload) };
      return undefined;
    },
    deferUpdate: async (payload) => {
      const deferral = guardDeferral();
      if (!deferral) {
        state.begun = true;
        const sent = originals.deferUpdate!(payload);
        state.deferral = { kind: 'update', ephemeral: false, by: 'handler', ready: sent.then(() => true, () => false) };
        return sent;
      }
      if (!(await deferral.ready)) return originals.deferUpdate!(payload);
      return undefined;
    },
    showModal: async (...args) => {
      const deferral = guardDeferral();
      if (!deferral || state.followedUp) {
        state.begun = true;
        return originals.showModal!(...args);
      }
      state.followedUp = true;
      if (!(await deferral.ready)) return originals.showModal!(...args);
      log().info('a form could not open after the interaction was deferred; asked the user to press again');
      await answerAfterDeferral(originals, deferral, formTooLateReply(), 'reply');
      return undefined;
    },
    editReply: async (payload) => {
      const deferral = guardDeferral();
      if (deferral && !(await deferral.ready)) return originals.editReply(payload);
      if (deferral && state.handlerWants && !state.followedUp) {
        state.followedUp = true;
        const wanted = typeof payload === 'string' ? { content: payload } : { ...(payload as object) };
        const asked = { ...wanted, flags: state.handlerWants.ephemeral ? MessageFlags.Ephemeral : undefined } as Payload;
        const message = await answerAfterDeferral(originals, deferral, asked, 'reply');
        if (deferral.kind === 'update' || (state.handlerWants.ephemeral && !deferral.ephemeral)) state.original = message.id;
        return message;
      }
      if (!state.original) return originals.editReply(payload);
      const options = (typeof payload === 'string' ? { content: payload } : payload) as { message?: unknown };
      return originals.editReply({ ...options, message: redirected(options.message) });
    },
    followUp: async (payload) => {
      await guardDeferral()?.ready;
      return originals.followUp(payload);
    },
    deleteReply: async (message) => {
      await guardDeferral()?.ready;
      return originals.deleteReply(redirected(message));
    },
    fetchReply: async (message) => {
      await guardDeferral()?.ready;
      return originals.fetchReply(redirected(message));
    },
  };
  const install = (names: readonly string[]): void => {
    for (const name of names) {
      if (typeof (interaction as unknown as Record<string, unknown>)[name] === 'function') Object.defineProperty(interaction, name, { value: wrapped[name], configurable: true, writable: true });
    }
  };
  // The calls that acknowledge are watched from the start; the others only change once the guard has deferred
  // (until then they pass straight through), so they are wrapped then: most interactions never pay for them.
  install(ACKNOWLEDGING);

  const arrived = performance.now();
  const acknowledge = (why: string): void => {
    if (state.begun) return;
    state.begun = true;
    const kind = fromMessage(interaction) ? 'update' : 'reply';
    const sent = kind === 'update' ? originals.deferUpdate!() : originals.deferReply();
    const ready = sent.then(
      () => true,
      (error: unknown) => {
        log().warn({ err: error }, 'could not defer a slow interaction');
        return false;
      },
    );
    state.deferral = { kind, ephemeral: false, by: 'guard', ready };
    install(AFTER_DEFERRAL);
    log().info({ afterMs: Math.round(performance.now() - arrived), kind }, `deferred: ${why}`);
  };
  const timer = setTimeout(() => acknowledge('the handler is still working'), afterMs);

  return {
    stop() {
      clearTimeout(timer);
    },
    acknowledgeNow(why) {
      clearTimeout(timer);
      acknowledge(why);
    },
    get deferred() {
      return state.deferral?.by === 'guard';
    },
  };
}

/**
 * Sends `payload` as the interaction's answer however far it got: the first answer, the one after a deferral (the
 * guard's or the handler's), or a follow-up. For the one place that answers failures.
 */
export async function answerInteraction(interaction: RepliableInteraction, payload: InteractionReplyOptions): Promise<void> {
  const state = tracking.get(interaction);
  if (state?.deferral) await state.deferral.ready;
  if (!interaction.deferred && !interaction.replied) {
    await interaction.reply(payload);
    return;
  }
  if (interaction.deferred && !interaction.replied) {
    const originals = originalsByInteraction.get(interaction) ?? originalsOf(interaction);
    // Untracked (no guard): a deferred component most likely deferred its update.
    const kind = state?.deferral?.kind ?? (fromMessage(interaction) ? 'update' : 'reply');
    if (state) state.followedUp = true;
    await answerAfterDeferral(originals, { kind, ephemeral: interaction.ephemeral ?? false }, payload as Payload, 'reply');
    return;
  }
  await interaction.followUp(payload);
}
