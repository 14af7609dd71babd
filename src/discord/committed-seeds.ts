/**
 * Seeds derived from the server's open session (commit and reveal, src/engine/commitment.ts), handed out through the
 * same synchronous `newSeed()` every handler already calls. Before an interaction is handled, its server's open
 * session is loaded (created, for a new day) by `around`, which also marks the interaction's async work as the
 * server's: `newSeed` then derives the next seed of that server's session, wherever in the handler it is called.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Interaction } from 'discord.js';
import { newSeed as seedOfItsOwn } from '../engine/rng.js';
import type { Logger } from '../log.js';
import type { SessionStore } from '../store/sessions.js';

/** The command that opens and closes sessions: it loads what it needs itself, and never rolls. */
const SESSION_COMMAND = 'session';

/** Whether an interaction may roll, so that its server's session must be ready first. */
function mayRoll(interaction: Interaction): boolean {
  if (!interaction.inGuild() || interaction.isAutocomplete()) return false;
  return !(interaction.isChatInputCommand() && interaction.commandName === SESSION_COMMAND);
}

export class CommittedSeeds {
  private readonly serverOf = new AsyncLocalStorage<string>();

  constructor(
    private readonly sessions: SessionStore,
    private readonly now: () => Date,
    private readonly log: Logger,
  ) {}

  /** Runs `handle` as the interaction's server's work, its session loaded first when it may roll. */
  async around(interaction: Interaction, handle: () => Promise<void>): Promise<void> {
    if (!mayRoll(interaction)) return handle();
    const guildId = interaction.guildId!;
    if (!this.sessions.isReady(guildId, this.now())) {
      try {
        await this.sessions.prepare(guildId, this.now());
      } catch (error) {
        // The handler still runs: a database that cannot load the session cannot store its rolls either, and the
        // handler says so in its own words; a roll it makes meanwhile gets a seed of its own (newSeed).
        this.log.warn({ err: error, guildId }, 'the open session could not be loaded for committed seeds');
      }
    }
    return this.serverOf.run(guildId, handle);
  }

  /**
   * The next seed of the server whose interaction is being handled. Outside one, or when its session is not loaded
   * (closed while the handler ran, or not loadable), a seed of its own: a roll is never refused for its seed, and a
   * seed of its own says in the roll log that no commitment covers it.
   */
  readonly newSeed = (): string => {
    const guildId = this.serverOf.getStore();
    const seed = guildId === undefined ? null : this.sessions.nextSeed(guildId);
    if (seed !== null) return seed;
    if (guildId !== undefined) this.log.warn({ guildId }, 'a roll took a seed of its own: no open session was loaded for its server');
    return seedOfItsOwn();
  };
}
