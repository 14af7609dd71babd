/** Contests whose step ran out expire: at start-up and then on a timer, and their message greys out. */
import type { Client } from 'discord.js';
import type { BotServices } from '../../src/discord/command.js';
import { seededRng } from '../../src/engine/rng.js';
import { applyContestAction } from '../../src/engine/systems/tactalk/contest.js';
import { contestMessage } from '../../src/views/contest/message.js';
import { drawn } from './message.js';
import { inTurn } from './turns.js';

const SWEEP_INTERVAL_MS = 30_000;
/** How often the sweeper looks at the bot's clock: the delay between a step running out and its message greying. */
const SWEEP_POLL_MS = 1_000;

async function sweep(client: Client, services: BotServices): Promise<void> {
  // Each server's contests are swept by the process running its shard: once, however many processes run.
  const unreadable = (contestId: number, error: unknown) => services.log.error({ err: error, contestId }, 'an overdue contest could not be read: passed over by the expiry sweep');
  for (const contest of await services.store.contests.overdue(services.now(), undefined, services.shards, unreadable)) {
    await inTurn(services.store, contest.id, async () => {
      const expired = applyContestAction(contest.state, { type: 'expire' }, { userId: '', isDispatcher: false, name: 'timer' }, seededRng('expire'));
      const saved = await services.store.contests.save(contest, expired, contest.expiresAt);
      if (!saved || !saved.messageId) return;
      try {
        const channel = await client.channels.fetch(saved.channelId);
        const settings = await services.store.servers.settings(saved.guildId);
        if (channel?.isTextBased()) await channel.messages.edit(saved.messageId, contestMessage(await drawn(services, saved, settings)));
      } catch (error) {
        services.log.warn({ err: error, contestId: saved.id }, 'could not mark an expired contest on its message');
      }
    });
  }
}

/**
 * The sweep keeps the bot's clock (`services.now`), not the wall clock's timer: it is due once that clock has moved
 * SWEEP_INTERVAL_MS past the last sweep. With the real clock that is the usual sweep every 30 s; with a clock a
 * test injects, contests expire only when the test moves its clock, and `sweepContestsNow` lets it run that sweep
 * between two of its steps, so a seeded run expires the same contests at the same steps every time.
 */
const sweepers = new WeakMap<Client, () => Promise<void>>();

export function startSweeper(client: Client, services: BotServices): () => void {
  let running = Promise.resolve();
  let sweptAt = -Infinity;
  const run = (): Promise<void> => {
    // Taken before the sweep starts, so a poll during a long sweep does not queue another for the same moment.
    sweptAt = services.now().getTime();
    running = running.then(() => sweep(client, services)).catch((error: unknown) => services.log.error({ err: error }, 'contest expiry sweep failed'));
    return running;
  };
  void run();
  sweepers.set(client, run);
  const timer = setInterval(() => {
    if (services.now().getTime() - sweptAt >= SWEEP_INTERVAL_MS) void run();
  }, SWEEP_POLL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    sweepers.delete(client);
  };
}

/** Runs the expiry sweep of the bot logged in with `client` at its clock's current time, after any sweep under way. */
export function sweepContestsNow(client: Client): Promise<void> {
  const run = sweepers.get(client);
  if (!run) throw new Error('no contest sweeper runs for this client (the bot is not started, or stopped)');
  return run();
}
