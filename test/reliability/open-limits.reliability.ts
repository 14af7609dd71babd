// Issue 22: limits that must hold when presses and commands arrive at once, each counted over many trials, and rows
// that never reached the channel holding nobody's place. Each trial sends its interactions in the same tick (as
// simultaneous presses are), waits for every answer, then reads the store on a read-only connection:
//  - six /contest start from one player at once open at most the per-player limit (CONTEST_LIMITS.openPerUser, 3);
//  - thirty challengers at once against one player open at most that limit for them, and ping them at most that often;
//  - ten /roll intent from one player at once leave at most STATED_INTENTS_MAX (3, commands/dispatch.ts) waiting;
//  - a d6 pool's Push and a Dispatcher's tie-break of the same tied opposed roll, pressed together: one lands, never both
//    (the push's condition and the re-roll);
//  - three /roll intent whose answers never reached Discord do not stop the player stating a new one.
//
// Run with `npm run test:reliability` (this file alone: `npx vitest run --config vitest.reliability.config.ts
// test/reliability/open-limits.reliability.ts`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEST_LIMITS, OPEN_PHASES } from '../../src/engine/systems/tactalk/contest.js';
import type { FakeMessage, SandboxInteractionRequest, SandboxInteractionResult } from '../../src/sandbox/fake-discord.js';
import { derivedRollId } from '../../src/store/rolls.js';
import { liveControls, messageText, StoredState } from '../helpers/channel-checker.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { DISPATCHER, DISPATCHER_ROLES, importSheet, tactalkSheet } from '../helpers/stored-flows.js';

const TRIALS = 20;
/** commands/dispatch.ts: a player may have this many intents waiting for a Dispatcher at once. */
const STATED_INTENTS_MAX = 3;
const LIMIT = CONTEST_LIMITS.openPerUser;

let sandbox: TestSandbox;
let stored: StoredState;
const summary: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  stored = new StoredState(sandbox.databaseUrl);
}, 60_000);

afterAll(async () => {
  console.log(`open-limits:\n${summary.join('\n')}`);
  stored?.close();
  if (sandbox) {
    expect(sandbox.fake.violations).toEqual([]);
    await sandbox.stop();
  }
});

const act = (request: SandboxInteractionRequest): Promise<SandboxInteractionResult> => sandbox.act(request);

/** Sends every request in the same tick and waits for all the answers; any Discord rule broken fails the test. */
async function atOnce(requests: SandboxInteractionRequest[]): Promise<SandboxInteractionResult[]> {
  const results = await Promise.all(requests.map((request) => sandbox.fake.interact(request)));
  for (const result of results) expect(result.errors).toEqual([]);
  return results;
}

const channelIds = () => new Set(sandbox.fake.messages().map((message) => message.id));
const postedSince = (since: Set<string>): FakeMessage[] => sandbox.fake.messages().filter((message) => !since.has(message.id));
const pings = (message: FakeMessage, userId: string): boolean => ((message.allowedMentions as { users?: string[] } | undefined)?.users ?? []).includes(userId);

/** Contests of `userId` (either side) in an open phase, as stored. */
function openContestsOf(userId: string): number {
  return stored.contests().filter((contest) => {
    const sides = contest.state as { challenger: { userId: string }; opponent: { userId: string } };
    return (OPEN_PHASES as readonly string[]).includes(contest.phase) && (sides.challenger.userId === userId || sides.opponent.userId === userId);
  }).length;
}

/** The trials that broke a rule, in a line: how many, and the first few. */
const overText = (over: string[]) => (over.length ? `in ${over.length} trial(s): ${over.slice(0, 3).join('; ')}${over.length > 3 ? '; …' : ''}` : 'never');

const contestStart = (challenger: string, opponent: string, tag: string): SandboxInteractionRequest => ({
  user: challenger,
  command: 'contest start',
  options: { opponent, intent: `take the keys ${tag}`, stakes: 'the keys change hands', skill: 'CQC', role: 'attacker' },
});

describe(`at once, ${TRIALS} trials each`, () => {
  it(`six /contest start from one player open at most ${LIMIT} contests`, async () => {
    const over: string[] = [];
    let opened = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const challenger = `six-${trial}`;
      await importSheet(act, challenger, tactalkSheet(`Kat six-${trial}`));
      const since = channelIds();
      await atOnce(Array.from({ length: 6 }, (_, index) => contestStart(challenger, `six-${trial}-foe-${index}`, `${trial}.${index}`)));
      const open = openContestsOf(sandbox.fake.user(challenger).id);
      const openings = postedSince(since).filter((message) => /Contest #\d+:/.test(messageText(message))).length;
      opened += open;
      if (open > LIMIT || openings > LIMIT) over.push(`trial ${trial}: ${open} open contests stored, ${openings} opening messages posted`);
    }
    summary.push(`six starts at once: ${opened} contests opened in ${TRIALS} trials; over the limit of ${LIMIT}: ${overText(over)}`);
    expect(opened).toBeGreaterThanOrEqual(TRIALS);
    expect(over).toEqual([]);
  });

  it(`thirty challengers at once against one player open at most ${LIMIT} contests with them and ping them at most ${LIMIT} times`, async () => {
    const challengers = Array.from({ length: 30 }, (_, index) => `thirty-${index}`);
    await Promise.all(challengers.map((name) => importSheet(act, name, tactalkSheet(`Op ${name}`))));
    const over: string[] = [];
    let opened = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const target = `target-${trial}`;
      const targetId = sandbox.fake.user(target).id;
      const since = channelIds();
      await atOnce(challengers.map((challenger) => contestStart(challenger, target, `${trial}`)));
      const open = openContestsOf(targetId);
      const posted = postedSince(since);
      const pinged = posted.filter((message) => pings(message, targetId)).length;
      opened += open;
      if (open > LIMIT || pinged > LIMIT) over.push(`trial ${trial}: ${open} open contests stored against ${target}, pinged ${pinged} times`);
      // The challengers' own places free again for the next trial: a Dispatcher cancels what opened.
      for (const message of posted) {
        const cancel = liveControls(message).find((control) => control.customId.startsWith('contest:cancel:'));
        if (cancel) await act({ user: DISPATCHER, roles: DISPATCHER_ROLES, button: cancel.customId, message: message.id });
      }
    }
    summary.push(`thirty challengers at once: ${opened} contests opened in ${TRIALS} trials; over the limit of ${LIMIT}: ${overText(over)}`);
    expect(opened).toBeGreaterThanOrEqual(TRIALS);
    expect(over).toEqual([]);
  });

  it(`ten /roll intent from one player leave at most ${STATED_INTENTS_MAX} waiting`, async () => {
    const over: string[] = [];
    let waiting = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const player = `ten-${trial}`;
      await importSheet(act, player, tactalkSheet(`Troy ten-${trial}`));
      const since = channelIds();
      await atOnce(Array.from({ length: 10 }, (_, index) => ({ user: player, command: 'roll intent', options: { intent: `try ${trial}.${index}`, outcome: 'it works' } })));
      const stated = stored.statedIntents(sandbox.fake.user(player).id).length;
      const posted = postedSince(since).filter((message) => /Intent #\d+/.test(messageText(message))).length;
      waiting += stated;
      if (stated > STATED_INTENTS_MAX || posted > STATED_INTENTS_MAX) over.push(`trial ${trial}: ${stated} intents stored as waiting, ${posted} posted`);
    }
    summary.push(`ten intents at once: ${waiting} left waiting in ${TRIALS} trials; over the limit of ${STATED_INTENTS_MAX}: ${overText(over)}`);
    expect(waiting).toBeGreaterThanOrEqual(TRIALS);
    expect(over).toEqual([]);
  });

  it("a d6 pool's Push and a Dispatcher's tie-break, pressed together on a tie: one lands, never both", async () => {
    // One die each (STR 1, EMP 1, no skill), so a tie (no success on either side) is common, and the active die can
    // often be pushed (a 2–5).
    await importSheet(act, 'pool-foe', { name: 'Troy pool-foe', system: 'd6-pool', attributes: [{ name: 'EMP', value: 1 }] });
    const both: string[] = [];
    const landed = { push: 0, tieBreak: 0 };
    let races = 0;
    for (let attempt = 0; races < TRIALS && attempt < 20 * TRIALS; attempt++) {
      const roller = `pool-${attempt}`;
      await importSheet(act, roller, { name: `Kat pool-${attempt}`, system: 'd6-pool', attributes: [{ name: 'STR', value: 1 }] });
      const rolled = await act({ user: roller, command: 'pool', options: { skill: 'Force', against: 'pool-foe', their_skill: 'Insight' } });
      const message = rolled.responses.find((response) => response.kind === 'reply' && !response.ephemeral)?.messageId;
      if (!message) throw new Error(`no pool roll posted: ${JSON.stringify(rolled.responses.map((r) => r.content))}`);
      const oppose = liveControls(sandbox.fake.message(message)).find((control) => control.customId.startsWith('pool:oppose:'))!;
      await act({ user: 'pool-foe', button: oppose.customId, message });
      const live = liveControls(sandbox.fake.message(message));
      const push = live.find((control) => control.customId.startsWith('pool:push:'));
      const tieBreak = live.find((control) => control.customId.startsWith('pool:tiebreak:'));
      if (!push || !tieBreak) continue;
      races++;
      const rollId = push.customId.split(':')[2]!;
      const presses: SandboxInteractionRequest[] = [
        { user: roller, select: push.customId, values: [push.options[0]!.value], message },
        { user: DISPATCHER, roles: DISPATCHER_ROLES, button: tieBreak.customId, message },
      ];
      // Each goes first in half of the races.
      await atOnce(races % 2 === 0 ? presses : presses.reverse());
      const [pushed, reRolled] = [stored.has(derivedRollId(rollId, 'push')), stored.has(derivedRollId(rollId, 'tiebreak-1'))];
      if (pushed) landed.push++;
      if (reRolled) landed.tieBreak++;
      if (pushed && reRolled) both.push(`roll ${rollId}: pushed (${derivedRollId(rollId, 'push')}) and re-rolled (${derivedRollId(rollId, 'tiebreak-1')})`);
    }
    summary.push(`push and tie-break together: ${races} races; the push landed ${landed.push} times, the tie-break ${landed.tieBreak}; both: ${overText(both)}`);
    expect(races).toBe(TRIALS);
    expect(both).toEqual([]);
  });
});

describe('rows that never reached the channel', () => {
  it('three /roll intent whose answers failed past the retries do not stop the player stating a new one', async () => {
    const player = 'lost-intents';
    await importSheet(act, player, tactalkSheet('Troy lost-intents'));
    for (let index = 0; index < 3; index++) {
      const rule = sandbox.fake.faults.add({ target: 'callback', status: 500, times: 8, name: 'intent answer lost' });
      try {
        const lost = await sandbox.fake.interact({ user: player, command: 'roll intent', options: { intent: `lost ${index}`, outcome: 'nobody saw it' } });
        expect(lost.errors).toEqual([]);
        expect(lost.responses.filter((response) => !response.ephemeral)).toEqual([]);
      } finally {
        rule.remove();
      }
    }
    const waitingUnseen = stored.statedIntents(sandbox.fake.user(player).id).length;
    const next = await act({ user: player, command: 'roll intent', options: { intent: 'climb the wall', outcome: 'on the roof' } });
    const posted = next.responses.find((response) => !response.ephemeral && /Intent #\d+/.test(messageText({ content: response.content ?? '', embeds: response.embeds })));
    const said = next.responses.map((response) => (response.content ?? '') + messageText({ content: '', embeds: response.embeds })).join(' ');
    summary.push(`three lost intents: ${waitingUnseen} stored as waiting though never shown; the fourth → ${posted ? 'posted' : `refused: "${said.replace(/\s+/g, ' ').slice(0, 160)}"`}`);
    expect(posted, `the fourth intent was refused: ${said}`).toBeDefined();
  });
});
