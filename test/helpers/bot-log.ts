// The bot's log kept in memory for the reliability suite. Its warnings and errors are invariants (no error line may
// appear), and the router's closing line per interaction ("interaction handled") is the sure sign that the bot is
// done with an interaction (the sandbox's fake hears of it directly; never from a quiet period, which a follow-up
// could outlast and make a seeded run depend on the machine's speed).
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export type LogLine = Record<string, unknown>;

export interface CapturedLog {
  logger: Logger;
  /** Lines at warn (40) and above, in order. Callers may splice it. */
  problems: LogLine[];
  /** Resolves true once the router finished the interaction, false if it did not within `timeoutMs`. */
  handled(interactionId: string, timeoutMs: number): Promise<boolean>;
  /** How many interactions the router finished, and how many of them its responder had to defer (src/discord/responder.ts). */
  handledCount(): number;
  deferredCount(): number;
}

const HANDLED = 'interaction handled';

export function captureBotLog(): CapturedLog {
  const problems: LogLine[] = [];
  const done = new Set<string>();
  const waiting = new Map<string, () => void>();
  let count = 0;
  let deferred = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (!text.trim()) continue;
        const line = JSON.parse(text) as LogLine;
        if (Number(line.level) >= 40) problems.push(line);
        if (line.msg === HANDLED && typeof line.interactionId === 'string') {
          count++;
          if (line.deferred === true) deferred++;
          const wake = waiting.get(line.interactionId);
          if (wake) wake();
          else done.add(line.interactionId);
        }
      }
      callback();
    },
  });
  return {
    logger: pino({ level: 'debug' }, sink),
    problems,
    handledCount: () => count,
    deferredCount: () => deferred,
    handled(interactionId, timeoutMs) {
      if (done.delete(interactionId)) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(interactionId);
          resolve(false);
        }, timeoutMs);
        waiting.set(interactionId, () => {
          clearTimeout(timer);
          waiting.delete(interactionId);
          resolve(true);
        });
      });
    },
  };
}
