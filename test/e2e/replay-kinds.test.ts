// Every kind of roll the bot stores replays as "the dice match" (RULES 6.3). One run makes a roll of each kind
// through the real bot, then replays everything in the roll log; a kind registered for replay that this run did not
// make fails the test, so a new kind cannot be left out of it.
import { expect, it } from 'vitest';
import { ROLL_KINDS } from '../../src/engine/replay.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { LOCK_PICKING_INVESTIGATION } from '../helpers/tables.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const sandbox = useTestSandbox();

const rollIdOf = (text: string) => /Roll (\w{8})/.exec(text)![1]!;

function customIdsOf(response: SandboxResponse): string[] {
  return (response.components as Array<{ components: Array<{ custom_id: string }> }>).flatMap((row) => row.components.map((c) => c.custom_id));
}

/** The bot's last answer: the notation library may first defer while it loads on its thread. */
async function finalAnswer(request: Parameters<ReturnType<typeof sandbox>['act']>[0]): Promise<SandboxResponse> {
  return (await sandbox().act(request)).responses.at(-1)!;
}

async function storedRolls(): Promise<Array<{ id: string; kind: string; dice: unknown }>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=100`);
  return ((await response.json()) as { rolls: Array<{ id: string; kind: string; dice: unknown }> }).rolls;
}

/** Each player has a sheet of each system the rolls read: Tac Talk (skills, archetype), d6 pools, d100 tactics, die codes. */
async function sheets(): Promise<void> {
  const box = sandbox();
  const fill = async (user: string, name: string, system: string, skills: ReadonlyArray<readonly [string, number]>, attributes: ReadonlyArray<readonly [string, number]>) => {
    await box.one({ user, command: 'sheet create', options: { name, system } });
    for (const [skill, level] of skills) await box.one({ user, command: 'sheet skill set', options: { name: skill, level } });
    for (const [attribute, value] of attributes) await box.one({ user, command: 'sheet attribute set', options: { name: attribute, value } });
  };
  await fill('mike', 'Troy', 'tactalk', [['Lock Picking', 60], ['Driving', 30], ['CQC', 40]], []);
  await box.one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
  await fill('mike', 'Troy d6', 'd6-pool', [['Force', 2]], [['STR', 3]]);
  await fill('mike', 'Troy d100', 'd100-tactics', [], [['Aim', 200], ['Psi', 80], ['Will', 70], ['Dodge', 20]]);
  await fill('sasha', 'Kat', 'tactalk', [['CQC', 37]], []);
  await fill('sasha', 'Kat d6', 'd6-pool', [['Insight', 2]], [['EMP', 3]]);
  await fill('sasha', 'Kat d100', 'd100-tactics', [], [['Health', 12], ['Armor', 1], ['Will', 60]]);
  await fill('mike', 'Troy codes', 'result-points', [], []);
  await fill('sasha', 'Kat codes', 'result-points', [], []);
}

async function investigationTable(): Promise<void> {
  await sandbox().bot.store.tables.save(sandbox().fake.guildId, LOCK_PICKING_INVESTIGATION);
}

async function tactalkRolls(): Promise<void> {
  const box = sandbox();
  await box.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 80, archetypes: 'Acuity' } });
  await box.one({ user: 'mike', command: 'roll linked', options: { rolls: 'Driving vs 80; Lock Picking vs 120' } });
  await box.one({ user: 'mike', command: 'roll outcome', options: { table: 'Investigation: Lock Picking', skill: 'lock picking' } });

  const asked = await box.act({ ...DISPATCHER, command: 'dispatch challenge', options: { intent: 'climb the wall', outcome: 'on the roof', player: 'mike', skill: 'Lock Picking', cl: 150, hidden: true } });
  const post = asked.responses.find((response) => !response.ephemeral)!;
  const requestId = /#(\d+)/.exec(textOf(post))![1];
  const investigated = await box.act({ user: 'mike', button: `dispatch:investigate:${requestId}`, message: post.messageId! });
  // The player sees the two dice of the investigation, as /roll outcome shows them.
  expect(investigated.responses[1]!.content).toMatch(/`\[\d\]\[\d\] → \d+`/);
}

async function contestRoll(): Promise<void> {
  const box = sandbox();
  const opening = await box.one({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'Kat disarms Troy', stakes: 'Troy is disarmed', skill: 'CQC', role: 'attacker' } });
  const message = opening.messageId!;
  const id = /Contest #(\d+)/.exec(textOf(opening))![1];
  await box.one({ user: 'mike', button: `contest:accept:${id}`, message });
  await box.act({ user: 'mike', modal: `contest:acceptform:${id}`, fields: { stakes: 'Kat falls', role: 'defender', skill: 'CQC', archetypes: '' }, message });
  // Agreeing rolls the dice: the contest message, then the result as a new message, then the message's link to it.
  const rolled = await box.act({ user: 'sasha', button: `contest:agree:${id}`, message });
  expect(textOf(rolled.responses[1]!)).toMatch(/roll \w{8}/);
}

async function otherSystemsRolls(): Promise<void> {
  const box = sandbox();
  await finalAnswer({ user: 'mike', command: 'roll dice', options: { expression: '4d6kh3+2' } });
  await box.one({ user: 'mike', command: 'code roll', options: { code: '3D+2', difficulty: 'moderate' } });
  await box.one({ user: 'mike', command: 'd10 roll', options: { dice: 4, tn: 8, modifier: 1 } });
  await box.one({ user: 'mike', command: 'd10 advanced', options: { primary: 3, secondary: 7, mode: 'additive', halve: true, tn: 10 } });
  await box.one({ user: 'mike', command: 'd10 extended', options: { dice: 2, tn: 8, target: 1000, rolls: 4 } });

  const pool = await box.one({ user: 'mike', command: 'pool', options: { skill: 'Force', gear: 1 } });
  const poolId = rollIdOf(textOf(pool));
  // Choosing the condition pushes: the push and its condition are stored together.
  await box.one({ user: 'mike', select: `pool:push:${poolId}`, values: ['Angry'], message: pool.messageId! });
  // Opposed rolls until one ties, which a Dispatcher breaks by re-rolling both pools (kind pool-tiebreak).
  for (let attempt = 0; ; attempt++) {
    expect(attempt).toBeLessThan(40);
    const opposed = await box.one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'insight' } });
    const opposedId = /Roll (\w{8}) ·/.exec(textOf(opposed))![1]!;
    const answered = await box.one({ user: 'sasha', button: `pool:oppose:${opposedId}`, message: opposed.messageId! });
    if (!customIdsOf(answered).includes(`pool:tiebreak:${opposedId}:1`)) continue;
    await box.one({ ...DISPATCHER, button: `pool:tiebreak:${opposedId}:1`, message: opposed.messageId! });
    break;
  }

  await box.one({ user: 'mike', command: 'tactics check', options: { attribute: 'aim', modifier: -10 } });
  await box.one({ user: 'mike', command: 'tactics damage', options: { base: 5, range: 4 } });
  const attack = await box.one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 6, weapon_range: 3, cover: 'none' } });
  await box.one({ user: 'mike', button: `tactics:apply:${rollIdOf(textOf(attack))}`, message: attack.messageId! });
  await box.one({ user: 'mike', command: 'tactics psi', options: { difficulty: -10, target: 'sasha' } });
  await box.one({ user: 'mike', command: 'tactics social', options: { species_distance: 25 } });
  await box.one({ user: 'mike', command: 'tactics reaction', options: { kind: 'dodge', modifier: -15 } });

  // Points spent on a track replay as their check; a concession, a scene's end and its action point as recorded.
  await box.one({ user: 'sasha', command: 'code track', options: { name: 'Wounds' } });
  const check = await box.one({ user: 'mike', command: 'code roll', options: { code: '6D+2', opponent: '1D', target: 'sasha', track: 'Wounds' } });
  await box.one({ user: 'mike', button: `code:spend:${rollIdOf(textOf(check))}`, message: check.messageId! });
  await box.one({ user: 'sasha', command: 'code concede' });
  await box.one({ ...DISPATCHER, command: 'code scene-end' });
}

/** Initiative rolls: a debate's ability check (die codes) and a d10 pool's Initiative, each made by an NPC joining. */
async function initiativeRolls(): Promise<void> {
  const box = sandbox();
  await box.act({ ...DISPATCHER, command: 'initiative start', options: { rule: 'debate' } });
  await box.act({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Senator', value: '3D+2' } });
  const prompt = await box.one({ ...DISPATCHER, command: 'initiative end' });
  await box.act({ ...DISPATCHER, button: (prompt.components as Array<{ components: Array<{ custom_id: string }> }>)[0]!.components[0]!.custom_id, message: prompt.messageId! });
  await box.act({ ...DISPATCHER, command: 'initiative start', options: { rule: 'd10-phase' } });
  await box.act({ ...DISPATCHER, command: 'initiative npc', options: { name: 'Earl', value: '3', modifier: 11 } });
}

it('a roll of every stored kind, investigations included, replays with "the dice match"', async () => {
  await sheets();
  await investigationTable();
  await tactalkRolls();
  await contestRoll();
  await otherSystemsRolls();
  await initiativeRolls();

  const rolls = await storedRolls();
  expect(new Set(rolls.map((roll) => roll.kind))).toEqual(new Set(ROLL_KINDS));
  // Both outcome rolls, the investigation's too, store their d100 as its two dice.
  expect(rolls.filter((roll) => roll.kind === 'outcome').map((roll) => roll.dice)).toEqual([[{ tens: expect.any(Number), ones: expect.any(Number) }], [{ tens: expect.any(Number), ones: expect.any(Number) }]]);
  const mismatches: string[] = [];
  for (const roll of rolls) {
    // The Dispatcher may replay every roll, secret or against a hidden CL.
    const replay = textOf(await finalAnswer({ ...DISPATCHER, command: 'roll replay', options: { id: roll.id } }));
    if (!replay.includes(`Roll ${roll.id}: the dice match`)) mismatches.push(`${roll.kind} ${roll.id}`);
  }
  expect(mismatches).toEqual([]);
});
