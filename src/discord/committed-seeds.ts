/**
 * Seeds derived from the server's open session (commit and reveal, src/engine/commitment.ts), handed out through the
 * same synchronous `newSeed()` every handler already calls (the router binds it to the interaction's server). Before
 * a handler that may roll runs, the router has its server's open session loaded (created, for a new day) by
 * `prepare`, so `newSeed` derives the next seed of that server's session without a look-up. No AsyncLocalStorage carries the server: its
 * promise hooks cost every interaction about a tenth of a millisecond (bench: /roll challenge p50).
 */
import { newSeed as seedOfItsOwn } from '../engine/rng.js';
import type { Logger } from '../log.js';
import type { SessionStore } from '../store/sessions.js';

export class CommittedSeeds {
  constructor(
    private readonly sessions: SessionStore,
    private readonly now: () => Date,
    private readonly log: Logger,
  ) {}

  /** Loads the server's open session (the router calls it before a handler that may roll). */
  readonly prepare = async (guildId: string): Promise<void> => {
    if (!this.sessions.isReady(guildId, this.now())) {
      try {
        await this.sessions.prepare(guildId, this.now());
      } catch (error) {
        // The handler still runs: a database that cannot load the session cannot store its rolls either, and the
        // handler says so in its own words; a roll it makes meanwhile gets a seed of its own (newSeed).
        this.log.warn({ err: error, guildId }, 'the open session could not be loaded for committed seeds');
      }
    }
  };

  /**
   * The next seed of the server. When its session is not loaded (closed while the handler ran, or not loadable), or
   * outside a server, a seed of its own: a roll is never refused for its seed, and a seed of its own says in the roll
   * log that no commitment covers it.
   */
  readonly newSeed = (guildId: string): string => {
    const seed = guildId === '' ? null : this.sessions.nextSeed(guildId);
    if (seed !== null) return seed;
    if (guildId !== '') this.log.warn({ guildId }, 'a roll took a seed of its own: no open session was loaded for its server');
    return seedOfItsOwn();
  };
}
