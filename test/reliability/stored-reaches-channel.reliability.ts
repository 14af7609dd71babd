// Issue 22, section 1: a stored change always reaches the channel. A press whose change the bot stored but whose
// answer never reached Discord (the interaction callback failed past @discordjs/rest's retries: the answer's 4 tries
// and the apology's 4) leaves its message as it was. The player then presses the same control again, from the message
// as the channel shows it. Then the channel must show the store (test/helpers/channel-checker.ts: no live control the
// stored state no longer allows, every stored step on its message, every result that is its own message posted once),
// and the second press must have changed nothing in the store beyond the first (no second roll, Health lowered once).
//
// One flow per test, each on the channel's messages since it started: /dispatch Take the roll and the failure's
// Outcome Roll, an intent's No roll needed, a d6 pool's Push, a d10 cumulative Roll again, an outcome table's Next,
// a tactics attack's Apply damage, a code check's Spend; a contest's rolling Agree as the flow that already recovers.
// First, every flow played with its answers delivered must leave the checker nothing to say.
//
// Run with `npm run test:reliability` (this file alone: `npx vitest run --config vitest.reliability.config.ts
// test/reliability/stored-reaches-channel.reliability.ts`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxInteractionRequest, SandboxInteractionResult } from '../../src/sandbox/fake-discord.js';
import { checkChannel, liveControls, messageText, StoredState, storedEffects, type Control } from '../helpers/channel-checker.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';
import { FLOWS, importTables, messagesSince, playOn, pressOf, setUpCast, startOf, type Cast, type FlowName } from '../helpers/stored-flows.js';

let sandbox: TestSandbox;
let stored: StoredState;
const cast: Cast = { player: 'mike', target: 'sasha' };
/** What each scenario found, printed at the end (the differences are also in each failing test's message). */
const summary: string[] = [];

const act = (request: SandboxInteractionRequest): Promise<SandboxInteractionResult> => sandbox.act(request);

beforeAll(async () => {
  sandbox = await startTestSandbox();
  stored = new StoredState(sandbox.databaseUrl);
  await importTables(act);
  await setUpCast(act, cast);
}, 120_000);

afterAll(async () => {
  console.log(`stored-reaches-channel:\n${summary.join('\n')}`);
  stored?.close();
  if (sandbox) {
    expect(sandbox.fake.violations).toEqual([]);
    await sandbox.stop();
  }
});

const channelIds = () => new Set(sandbox.fake.messages().map((message) => message.id));

/** Starts a flow: its public message (the one carrying the control). */
async function start(flow: FlowName): Promise<string> {
  const result = await act(startOf(flow, cast, flow === 'intent' || flow === 'dispatch' ? `#${summary.length}` : ''));
  const posted = result.responses.find((response) => !response.ephemeral && (response.kind === 'reply' || response.kind === 'followup') && response.messageId);
  if (!posted) throw new Error(`${flow} posted nothing: ${JSON.stringify(result.responses.map((r) => [r.kind, r.content]))}`);
  return posted.messageId!;
}

/** The live control on the message, as the channel shows it now, whose custom_id starts with `prefix`. */
function liveOn(message: string, prefix: string): Control | undefined {
  return liveControls(sandbox.fake.message(message)).find((control) => control.customId.startsWith(prefix));
}

/** A press whose every answer fails: the answer's tries and the apology's. The change is stored; nobody sees it. */
async function pressLost(request: SandboxInteractionRequest): Promise<SandboxInteractionResult> {
  const rule = sandbox.fake.faults.add({ target: 'callback', status: 500, times: 8, name: 'answer lost' });
  try {
    const lost = await sandbox.fake.interact(request);
    expect(lost.errors).toEqual([]);
    expect(lost.responses, 'the press was answered despite the faults').toEqual([]);
    expect(lost.faults!.length).toBeGreaterThanOrEqual(4);
    return lost;
  } finally {
    rule.remove();
  }
}

/** Lines in `after` and not in `before`, and the other way round: what changed between two snapshots of the store. */
function changed(before: string[], after: string[]): string[] {
  const [was, is] = [new Set(before), new Set(after)];
  return [...after.filter((line) => !was.has(line)).map((line) => `+ ${line}`), ...before.filter((line) => !is.has(line)).map((line) => `- ${line}`)];
}

const brief = (result: SandboxInteractionResult | undefined) =>
  result ? result.responses.map((r) => `${r.kind}${r.ephemeral ? ' (private)' : ''}${r.ephemeral ? `: "${textOf(r).replace(/\s+/g, ' ').slice(0, 90)}"` : ''}`).join(', ') || 'nothing' : 'not pressed (the control is gone)';

/**
 * The scenario: the press of `prefix` on `message` stored, its answer lost; the same control pressed again from the
 * channel. Returns what the checker says, and what the second press changed in the store.
 */
async function loseThenPressAgain(name: string, message: string, prefix: string, since: Set<string>): Promise<void> {
  const control = liveOn(message, prefix);
  expect(control, `${name}: the message offers ${prefix}`).toBeDefined();
  const press = pressOf(control!, message, cast)!;
  const before = storedEffects(stored);
  await pressLost(press);
  const afterFirst = storedEffects(stored);
  expect(changed(before, afterFirst), `${name}: the first press stored its change`).not.toEqual([]);
  // "This interaction failed": the player presses what the message shows, as it shows it.
  const again = liveOn(message, control!.customId) ? await act(press) : undefined;
  const afterSecond = storedEffects(stored);
  const differences = checkChannel(messagesSince(sandbox.fake, since), stored);
  const changedBySecond = changed(afterFirst, afterSecond);
  summary.push(
    `${name}: first press stored ${changed(before, afterFirst).join('; ')}; pressed again → ${brief(again)}; ` +
      `${differences.length} difference(s)${differences.map((d) => `\n    ${d}`).join('')}${changedBySecond.length ? `\n    the second press changed: ${changedBySecond.join('; ')}` : ''}`,
  );
  expect({ differences, changedBySecondPress: changedBySecond }).toEqual({ differences: [], changedBySecondPress: [] });
}

describe('the checker', () => {
  it('finds nothing to say about flows played with every answer delivered', async () => {
    const since = channelIds();
    for (const flow of FLOWS) {
      const message = await start(flow);
      const played = await playOn(sandbox.fake, act, since, cast);
      expect(played.stuck, `${flow}: stuck on`).toEqual([]);
      expect(played.presses.length, `${flow}: something to press on ${messageText(sandbox.fake.message(message)!)}`).toBeGreaterThan(0);
    }
    const differences = checkChannel(messagesSince(sandbox.fake, since), stored);
    summary.push(`every flow, answers delivered: ${differences.length} difference(s)${differences.map((d) => `\n    ${d}`).join('')}`);
    expect(differences).toEqual([]);
  });
});

describe('a press stored but never answered, pressed again', () => {
  it('/dispatch: Take the roll', async () => {
    const since = channelIds();
    const message = await start('dispatch');
    await loseThenPressAgain('/dispatch Take the roll', message, 'dispatch:roll:', since);
  });

  it("/dispatch: the failure's Outcome Roll (its own message)", async () => {
    const since = channelIds();
    const message = await start('dispatch');
    await act(pressOf(liveOn(message, 'dispatch:roll:')!, message, cast)!);
    expect(liveOn(message, 'dispatch:consequence:'), `the roll failed, so its Outcome Roll is offered: ${messageText(sandbox.fake.message(message)!)}`).toBeDefined();
    await loseThenPressAgain('/dispatch Outcome Roll', message, 'dispatch:consequence:', since);
  });

  it("/roll intent: a Dispatcher's No roll needed", async () => {
    const since = channelIds();
    const message = await start('intent');
    await loseThenPressAgain('/roll intent, No roll needed', message, 'dispatch:noroll:', since);
  });

  it('/pool: Push (the select of the condition)', async () => {
    const since = channelIds();
    const message = await start('pool');
    await loseThenPressAgain('/pool Push', message, 'pool:push:', since);
  });

  it('/d10 extended: Roll again', async () => {
    const since = channelIds();
    const message = await start('d10');
    await loseThenPressAgain('/d10 extended Roll again', message, 'd10:again:', since);
  });

  it("/roll outcome: Next (the next table's roll is its own message)", async () => {
    const since = channelIds();
    const message = await start('table');
    await loseThenPressAgain('/roll outcome Next', message, 'table:next:', since);
  });

  it('/tactics attack: Apply damage', async () => {
    const since = channelIds();
    const message = await start('tactics');
    await loseThenPressAgain('/tactics Apply damage', message, 'tactics:apply:', since);
  });

  it('/code roll: Spend', async () => {
    const since = channelIds();
    const message = await start('code');
    await loseThenPressAgain('/code Spend', message, 'code:spend:', since);
  });

  it("a contest's Agree that rolls the dice (contests already recover: the round's result is posted once)", async () => {
    const since = channelIds();
    const started = await act({ user: cast.player, command: 'contest start', options: { opponent: cast.target, intent: 'take the keys', stakes: 'the keys change hands', skill: 'CQC', role: 'attacker' } });
    const opening = started.responses.find((response) => response.kind === 'reply' && !response.ephemeral)!;
    const id = /Contest #(\d+)/.exec(textOf(opening))![1];
    const message = opening.messageId!;
    await act({ user: cast.target, button: `contest:accept:${id}`, message });
    await act({ user: cast.target, modal: `contest:acceptform:${id}`, fields: { stakes: 'the keys stay', role: 'defender', skill: 'Stealth', archetypes: '' }, message });
    const control = liveOn(message, `contest:agree:${id}`)!;
    expect(control).toBeDefined();
    const before = storedEffects(stored);
    await pressLost({ user: cast.player, button: control.customId, message });
    const afterFirst = storedEffects(stored);
    expect(afterFirst.some((line) => line === `contest #${id} resolved rounds 1`)).toBe(true);
    const again = await act({ user: cast.player, button: control.customId, message });
    const differences = checkChannel(messagesSince(sandbox.fake, since), stored);
    const changedBySecond = changed(afterFirst, storedEffects(stored));
    summary.push(`contest Agree: first press stored ${changed(before, afterFirst).join('; ')}; pressed again → ${brief(again)}; ${differences.length} difference(s)${differences.map((d) => `\n    ${d}`).join('')}`);
    expect({ differences, changedBySecondPress: changedBySecond }).toEqual({ differences: [], changedBySecondPress: [] });
  });
});
