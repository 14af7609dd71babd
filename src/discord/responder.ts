/**
 * How a handler answers its interaction: the router makes one Responder per interaction (`context.answer`), and
 * handlers answer only through it. The interaction itself stays theirs to read (options, user, customId, message).
 *
 * Discord forgets an interaction that gets no first answer within 3 seconds. Handlers answer in milliseconds, but
 * one that waits for a locked database (src/store/database.ts waits up to 10 s) would miss that deadline, so the
 * responder acknowledges for it after ~2 s (deferReply, or deferUpdate where the press may edit the message it came
 * from). A handler that knows it starts slow defers itself (`defer`). This is the one place that picks the discord.js
 * call for an answer, by how far the interaction was answered:
 *
 *     handler calls        first answer   after a deferReply (ours or the handler's)   after our deferUpdate
 *     reply (public)       reply          editReply (fills the "is thinking" note)     followUp (a new message)
 *     reply (private)      reply          deleteReply + private followUp               private followUp
 *     update               update         editReply                                    editReply (edits the message)
 *     defer                deferReply     nothing more: the reply comes as asked        nothing more
 *     showModal            showModal      a private "press again": a form cannot follow an acknowledgement
 *
 * It never acknowledges twice: an answer marks the acknowledgement as begun before its request leaves (discord.js
 * sets `replied` / `deferred` only once Discord has answered), so the timer, finding it begun, stays out.
 * Autocomplete has no deferral and is left alone.
 */
import {
  MessageFlags,
  MessageFlagsBitField,
  type InteractionEditReplyOptions,
  type InteractionReplyOptions,
  type InteractionUpdateOptions,
  type Interaction,
  type Message,
  type MessageComponentInteraction,
  type RepliableInteraction,
} from 'discord.js';
import { recordDrawn } from './drawn-controls.js';
import { fromMessage } from './interaction-kinds.js';
import type { Logger } from '../log.js';
import { formTooLateReply } from '../views/messages.js';
import { withRollAgainKept } from '../views/roll-again.js';

/** When the responder acknowledges: 2 s after the interaction arrived leaves a second for the request to reach Discord. */
export const DEFAULT_DEFER_AFTER_MS = 2000;

/** A message a handler answers with; private when its flags say Ephemeral. */
export type AnswerPayload = Omit<InteractionReplyOptions, 'withResponse' | 'fetchReply' | 'ephemeral'>;
/** The new state of the message a press came from. */
export type UpdatePayload = Omit<InteractionUpdateOptions, 'withResponse' | 'fetchReply'>;
/** A form: a ModalBuilder or its data. */
export type FormPayload = Parameters<MessageComponentInteraction['showModal']>[0];

interface Deferral {
  kind: 'reply' | 'update';
  ephemeral: boolean;
  by: 'router' | 'handler';
  /** Settles when Discord has answered the deferral: true when it was accepted. */
  ready: Promise<boolean>;
}

type Loose = Record<string, unknown>;

function isEphemeral(payload: Loose): boolean {
  return new MessageFlagsBitField((payload.flags as number | undefined) ?? 0).has(MessageFlags.Ephemeral);
}

/** The payload with its Ephemeral flag set or cleared (an edit cannot carry it: visibility is fixed by then). */
function withVisibility(payload: Loose, ephemeral: boolean): Loose {
  const { flags: _flags, ...rest } = payload;
  const flags = new MessageFlagsBitField((payload.flags as number | undefined) ?? 0);
  if (ephemeral) flags.add(MessageFlags.Ephemeral);
  else flags.remove(MessageFlags.Ephemeral);
  return flags.bitfield ? { ...rest, flags: flags.bitfield } : rest;
}

export class Responder {
  private readonly target: RepliableInteraction | null;
  private readonly arrived = performance.now();
  private readonly timer: NodeJS.Timeout | undefined;
  /** An acknowledgement (reply, update, form or deferral) has been sent or is on its way. */
  private begun = false;
  private deferral: Deferral | undefined;
  /** The answer that fills the deferral has been sent or is on its way. */
  private filled = false;
  /** The handler deferred privately after the router had deferred: its reply then comes privately. */
  private wantsPrivate = false;
  /** Where the handler's answer went when it had to become a follow-up message: its edits go there. */
  private moved: string | undefined;
  /** What the handler's reply gains before it leaves: a typed roll's Roll again row (src/discord/roll-again.ts). */
  private replyExtra: ((payload: Loose) => Promise<Loose>) | undefined;

  /** `log` is asked for only when there is something to log. */
  constructor(
    interaction: Interaction,
    private readonly log: () => Logger,
    afterMs = DEFAULT_DEFER_AFTER_MS,
  ) {
    this.target = interaction.isRepliable() ? interaction : null;
    if (this.target) this.timer = setTimeout(() => this.acknowledge('the handler is still working'), afterMs);
  }

  /** The first answer: a message, public or private. After a deferral it fills it (see the table above). */
  async reply(payload: AnswerPayload): Promise<void> {
    await this.answer(payload, 'reply');
  }

  /** A public reply the command keeps (a contest, a tracker, a roll request): resolves to its message's id. */
  async replyWithMessageId(payload: AnswerPayload): Promise<string | null> {
    return this.answer(payload, 'reply', true);
  }

  /** Has the handler's reply (reply or replyWithMessageId, public or private) reworked by `extra` before it leaves. */
  beforeReply(extra: (payload: AnswerPayload) => Promise<AnswerPayload>): void {
    this.replyExtra = extra as unknown as (payload: Loose) => Promise<Loose>;
  }

  /**
   * After a held press (`holdMessage`) and the handler's own answer: redraws the message the press came from, which
   * `update` cannot reach once the answer went out as a message of its own.
   */
  async editPressed(payload: UpdatePayload): Promise<void> {
    const target = this.repliable();
    if (!fromMessage(target) || this.deferral?.kind !== 'update') throw new Error('only a held press can redraw its message after answering');
    await this.deferral.ready;
    await target.editReply({ ...(payload as InteractionEditReplyOptions), message: '@original' });
    if (target.message?.id && payload.components !== undefined) recordDrawn(target.message.id, payload.components);
  }

  /** A press's answer that redraws the message it came from. */
  async update(given: UpdatePayload): Promise<void> {
    // A typed roll's message redrawn by its own controls keeps its Roll again row (src/views/roll-again.ts).
    const drawn = this.target && fromMessage(this.target) ? this.target.message?.components : undefined;
    const payload = drawn && given.components !== undefined ? ({ ...given, components: withRollAgainKept(drawn, given.components) } as UpdatePayload) : given;
    await this.answer(payload, 'update');
    const pressed = this.target && fromMessage(this.target) ? this.target.message?.id : undefined;
    if (pressed && payload.components !== undefined) recordDrawn(pressed, payload.components);
  }

  /** Acknowledges now, for a handler that knows it will be slow; its `reply` then comes as asked (private or not). */
  async defer(options: { private?: boolean } = {}): Promise<void> {
    const ephemeral = options.private === true;
    if (this.deferral && (await this.deferral.ready)) {
      this.wantsPrivate = ephemeral;
      return;
    }
    const target = this.repliable();
    this.begun = true;
    const sent = target.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {});
    this.deferral = { kind: 'reply', ephemeral, by: 'handler', ready: sent.then(() => true, () => false) };
    await sent;
  }

  /**
   * Acknowledges a press and leaves its message as it is for now: what the press posts as its own message comes
   * first, and `update` then edits the message. So a message never says a result was made that the channel lacks:
   * if the post fails, the message keeps its live controls and the next press posts the result (src/discord/stored-message.ts).
   */
  async holdMessage(): Promise<void> {
    if (this.begun) {
      await this.deferral?.ready;
      return;
    }
    const target = this.repliable();
    if (!fromMessage(target)) throw new Error('this interaction has no message to hold');
    this.begun = true;
    const sent = target.deferUpdate();
    this.deferral = { kind: 'update', ephemeral: false, by: 'handler', ready: sent.then(() => true, () => false) };
    await sent;
  }

  /** Opens a form: only as the first answer, so after a deferral the user is asked privately to press again. */
  async showModal(form: FormPayload): Promise<void> {
    const target = this.repliable();
    if (this.deferral && !this.filled) {
      this.filled = true;
      if (await this.deferral.ready) {
        this.log().info('a form could not open after the interaction was deferred; asked the user to press again');
        await this.afterDeferral(this.deferral, formTooLateReply() as unknown as Loose, 'reply');
        return;
      }
    }
    if (!('showModal' in target)) throw new Error('this interaction cannot open a form');
    this.begun = true;
    await target.showModal(form);
  }

  /** Edits the handler's answer (after an update: the message the press came from). */
  async editReply(payload: InteractionEditReplyOptions): Promise<void> {
    const target = this.repliable();
    await this.deferral?.ready;
    await target.editReply(this.moved ? { ...payload, message: this.moved } : payload);
  }

  /** Another message after the answer; resolves to it. */
  async followUp(payload: AnswerPayload): Promise<Message> {
    const target = this.repliable();
    await this.deferral?.ready;
    return target.followUp(payload);
  }

  /**
   * Sends `payload` however far the interaction was answered: as its first answer, as the answer that fills a
   * deferral, or as a follow-up. For the one place that answers failures (src/discord/errors.ts).
   */
  async answerAnyhow(payload: AnswerPayload): Promise<void> {
    const target = this.target;
    if (!target) return;
    await this.deferral?.ready;
    if (!target.deferred && !target.replied) {
      this.begun = true;
      await target.reply(payload);
    } else if (target.deferred && !target.replied && this.deferral) {
      this.filled = true;
      await this.afterDeferral(this.deferral, payload as Loose, 'reply');
    } else {
      await target.followUp(payload);
    }
  }

  /** The handler is done: no deferral from now on. */
  stop(): void {
    clearTimeout(this.timer);
  }

  /** Defers at once (unless something acknowledged already): the handler is known to start late. */
  acknowledgeNow(why: string): void {
    clearTimeout(this.timer);
    this.acknowledge(why);
  }

  /** Whether the responder acknowledged the interaction for its handler. */
  get deferred(): boolean {
    return this.deferral?.by === 'router';
  }

  private repliable(): RepliableInteraction {
    if (!this.target) throw new Error('this interaction cannot be answered (autocomplete answers with its choices)');
    return this.target;
  }

  private acknowledge(why: string): void {
    const target = this.target;
    if (this.begun || !target) return;
    this.begun = true;
    const kind = fromMessage(target) ? 'update' : 'reply';
    const sent = fromMessage(target) ? target.deferUpdate() : target.deferReply();
    const ready = sent.then(
      () => true,
      (error: unknown) => {
        this.log().warn({ err: error }, 'could not defer a slow interaction');
        return false;
      },
    );
    this.deferral = { kind, ephemeral: false, by: 'router', ready };
    this.log().info({ afterMs: Math.round(performance.now() - this.arrived), kind }, `deferred: ${why}`);
  }

  /** A reply or update: the first answer, or the one that fills the deferral. Resolves to its message id when asked. */
  private async answer(given: Loose, as: 'reply' | 'update', wantId = false): Promise<string | null> {
    const target = this.repliable();
    const payload = as === 'reply' && this.replyExtra ? await this.replyExtra(given) : given;
    const deferral = this.deferral;
    if (deferral && !this.filled) {
      this.filled = true;
      // A deferral Discord refused leaves the interaction unanswered: the answer is tried as a first one.
      if (await deferral.ready) return (await this.afterDeferral(deferral, as === 'reply' && this.wantsPrivate ? withVisibility(payload, true) : payload, as)).id;
    }
    this.begun = true;
    if (as === 'update') {
      if (!fromMessage(target)) throw new Error('this interaction has no message to update');
      await target.update(payload);
      return null;
    }
    if (!wantId) {
      await target.reply(payload);
      return null;
    }
    const response = await target.reply({ ...payload, withResponse: true });
    return response.resource?.message?.id ?? null;
  }

  /** Sends `payload` as the answer that follows a deferral: see the table at the top of this file. */
  private async afterDeferral(deferral: Deferral, payload: Loose, as: 'reply' | 'update'): Promise<Message> {
    const target = this.repliable();
    let message: Message;
    if (deferral.kind === 'update') {
      // After deferUpdate, @original is the message the press came from.
      if (as === 'update') return target.editReply(withVisibility(payload, false));
      message = await target.followUp(withVisibility(payload, isEphemeral(payload)));
    } else if (as === 'reply' && isEphemeral(payload) && !deferral.ephemeral) {
      // A public "is thinking" note cannot turn private: it goes, and the answer comes privately.
      await target.deleteReply();
      message = await target.followUp(withVisibility(payload, true));
    } else {
      return target.editReply(withVisibility(payload, false));
    }
    this.moved = message.id;
    return message;
  }
}
