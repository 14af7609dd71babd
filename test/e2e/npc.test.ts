// NPC sheets owned by the server: kept and rolled for by Dispatchers, through the real bot and the fake Discord.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';
import { postedAs } from '../helpers/npc-voice.js';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await startTestSandbox({ seeds: ['npc-seed-a', 'npc-seed-b', 'npc-seed-c'] });
});
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

const NO_PINGS = { parse: [] };
const DEFAULT_RULE = 'Here a Dispatcher has a role named @Dispatcher or the Manage Server permission; a member with Manage Server can pick one role instead with `/config dispatcher-role`.';

/** Dee is the Dispatcher (the server's default rule: a role named Dispatcher). */
function asDispatcher(request: Omit<SandboxInteractionRequest, 'user'>): Promise<SandboxResponse> {
  return sandbox.one({ user: 'dee', roles: ['dispatcher'], ...request });
}

async function thug(): Promise<void> {
  await asDispatcher({ command: 'npc create', options: { name: 'Thug' } });
  await asDispatcher({ command: 'npc skill set', options: { npc: 'thug', name: 'Handgun Handling', level: 40 } });
  await asDispatcher({ command: 'npc archetype set', options: { npc: 'Thug', name: 'Brute', modifier: 5 } });
  await asDispatcher({ command: 'npc condition add', options: { npc: 'Thug', name: 'Drunk', modifier: -10 } });
}

async function storedRolls(): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox.url}/api/rolls?limit=20`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

async function npcListText(): Promise<string> {
  return textOf(await asDispatcher({ command: 'npc list' }));
}

describe('/npc', () => {
  it('a Dispatcher creates an NPC, fills it with the same subcommands as /sheet, shows and lists it', async () => {
    const created = await asDispatcher({ command: 'npc create', options: { name: ' Thug ' } });
    expect(created).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(created.content).toContain('Created the NPC **Thug**');

    expect((await asDispatcher({ command: 'npc skill set', options: { npc: 'thug', name: 'Handgun Handling', level: 40 } })).content).toBe('Thug now has **Handgun Handling 40**.');
    expect((await asDispatcher({ command: 'npc skill set', options: { npc: 'Thug', name: 'handgun handling', level: 45 } })).content).toContain('40 → **45**');
    expect((await asDispatcher({ command: 'npc skill set', options: { npc: 'Thug', name: 'Driving', level: 20 } })).content).toContain('**Driving 20**');
    expect((await asDispatcher({ command: 'npc skill remove', options: { npc: 'Thug', name: 'driving' } })).content).toBe('Removed the skill **Driving** from Thug.');
    expect((await asDispatcher({ command: 'npc archetype set', options: { npc: 'Thug', name: 'Brute', modifier: 5 } })).content).toContain('the archetype **Brute +5**');
    await asDispatcher({ command: 'npc archetype set', options: { npc: 'Thug', name: 'Sly', modifier: 2 } });
    expect((await asDispatcher({ command: 'npc archetype remove', options: { npc: 'Thug', name: 'sly' } })).content).toContain('Removed the archetype **Sly**');
    const condition = await asDispatcher({ command: 'npc condition add', options: { npc: 'Thug', name: 'Drunk', modifier: -10, skills: 'handgun handling' } });
    expect(condition.content).toBe('Thug is now **Drunk** (−10 on handgun handling).');
    await asDispatcher({ command: 'npc condition add', options: { npc: 'Thug', name: 'Tired', modifier: -5, minutes: 10 } });
    expect((await asDispatcher({ command: 'npc condition remove', options: { npc: 'Thug', name: 'tired' } })).content).toContain('Removed the condition **Tired**');

    const shown = await asDispatcher({ command: 'npc show', options: { name: 'THUG' } });
    expect(shown.ephemeral).toBe(true);
    const text = textOf(shown);
    expect(text).toContain('NPC of this server');
    expect(text).toContain('handgun handling **45**');
    expect(text).toContain('Brute **+5**');
    expect(text).toMatch(/Drunk \*\*−10\*\* \(handgun handling\)/);
    expect(text).not.toContain('(active)');
    expect((await asDispatcher({ command: 'npc show', options: { name: 'Thug', share: true } })).ephemeral).toBe(false);

    await asDispatcher({ command: 'npc create', options: { name: 'Boss' } });
    const list = await asDispatcher({ command: 'npc list' });
    expect(list.ephemeral).toBe(true);
    expect(textOf(list)).toMatch(/NPCs of this server\n• \*\*Boss\*\* · Tac Talk[^:]*: 0 skills, 0 attributes, 0 archetypes\n• \*\*Thug\*\* · Tac Talk[^:]*: 1 skill, 0 attributes, 1 archetype/);

    const twice = await asDispatcher({ command: 'npc create', options: { name: 'thug' } });
    expect(twice.content).toContain('This server already has an NPC named **Thug**.');
    const unknown = await asDispatcher({ command: 'npc show', options: { name: 'Thugg' } });
    expect(unknown.content).toContain('There is no NPC named **Thugg**. Did you mean **Thug**?');
  });

  it('keeps NPCs apart from sheets: never in a /sheet list, and a player may have a sheet of the same name', async () => {
    await thug();
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Thug' } });
    expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet list' }))).toMatch(/▶ \*\*Thug\*\* · Tac Talk[^:]*: 0 skills/);
    expect(textOf(await sandbox.one({ user: 'dee', roles: ['dispatcher'], command: 'sheet list' }))).toContain('No sheets yet');
    expect(await npcListText()).toMatch(/\*\*Thug\*\* · Tac Talk[^:]*: 1 skill/);
    // The player's skill goes to the player's sheet, the NPC keeps its own.
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 30 } });
    expect(textOf(await asDispatcher({ command: 'npc show', options: { name: 'Thug' } }))).not.toContain('Climbing');
    const stored = await sandbox.bot.store.db.operator.findMany({ where: { name: 'Thug' }, select: { ownerId: true } });
    expect(stored.map((row) => row.ownerId).sort()).toEqual(['npc', sandbox.fake.user('mike').id].sort());
  });

  it('deletes an NPC after a confirmation only a Dispatcher can give', async () => {
    await thug();
    const prompt = await asDispatcher({ command: 'npc delete', options: { name: 'thug' } });
    expect(prompt.ephemeral).toBe(true);
    expect(prompt.content).toContain('Delete **Thug**');
    const buttons = (prompt.components[0] as { components: Array<{ custom_id: string; label: string }> }).components;
    const confirm = buttons.find((button) => button.label.startsWith('Delete'))!;
    expect(confirm.custom_id).toMatch(/^npc:delete:\d+$/);

    const player = await sandbox.one({ user: 'mike', button: confirm.custom_id, message: prompt.messageId! });
    expect(player).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(player.content).toContain(`Only a Dispatcher can delete NPCs. ${DEFAULT_RULE}`);
    expect(await npcListText()).toContain('Thug');

    const done = await asDispatcher({ button: confirm.custom_id, message: prompt.messageId! });
    expect(done).toMatchObject({ kind: 'update', components: [], content: 'Deleted the NPC **Thug**.' });
    expect(await npcListText()).toContain('No NPCs yet');
  });

  it('refuses every /npc action to a player, privately, naming the role they would need, and changes nothing', async () => {
    await thug();
    const before = textOf(await asDispatcher({ command: 'npc show', options: { name: 'Thug' } }));
    const attempts: Array<[string, Record<string, unknown>, string]> = [
      ['npc create', { name: 'Spy' }, 'create NPCs'],
      ['npc show', { name: 'Thug' }, 'see NPC sheets'],
      ['npc list', {}, 'list the NPCs'],
      ['npc delete', { name: 'Thug' }, 'delete NPCs'],
      ['npc skill set', { npc: 'Thug', name: 'Handgun Handling', level: 99 }, 'change NPC sheets'],
      ['npc skill remove', { npc: 'Thug', name: 'Handgun Handling' }, 'change NPC sheets'],
      ['npc archetype set', { npc: 'Thug', name: 'Brute', modifier: 50 }, 'change NPC sheets'],
      ['npc archetype remove', { npc: 'Thug', name: 'Brute' }, 'change NPC sheets'],
      ['npc condition add', { npc: 'Thug', name: 'Blessed', modifier: 20 }, 'change NPC sheets'],
      ['npc condition remove', { npc: 'Thug', name: 'Drunk' }, 'change NPC sheets'],
    ];
    for (const [command, options, action] of attempts) {
      const refused = await sandbox.one({ user: 'mike', command, options });
      expect(refused, command).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS, components: [] });
      expect(refused.content, command).toBe(`⚠️ Only a Dispatcher can ${action}. ${DEFAULT_RULE}`);
    }
    expect(sandbox.fake.messages()).toHaveLength(0);
    expect(textOf(await asDispatcher({ command: 'npc show', options: { name: 'Thug' } }))).toBe(before);
    expect(await npcListText()).not.toContain('Spy');

    // Autocomplete gives a player no NPC names.
    expect((await sandbox.one({ user: 'mike', command: 'npc show', options: { name: 'th' }, focused: 'name' })).choices).toEqual([]);
    expect((await sandbox.one({ user: 'mike', command: 'roll challenge', options: { npc: 'th' }, focused: 'npc' })).choices).toEqual([]);
    expect((await asDispatcher({ command: 'npc show', options: { name: 'th' }, focused: 'name' })).choices).toEqual([{ name: 'Thug', value: 'Thug' }]);
    expect((await asDispatcher({ command: 'npc skill set', options: { npc: 'Thug', name: 'ha' }, focused: 'name' })).choices).toEqual([
      { name: 'Handgun Handling (40)', value: 'Handgun Handling' },
    ]);
  });
});

describe('/roll challenge for an NPC', () => {
  beforeEach(thug);

  it('rolls from the NPC sheet, autocompletes NPC names and their skills, and a Dispatcher may force it', async () => {
    const names = await asDispatcher({ command: 'roll challenge', options: { npc: 'T' }, focused: 'npc' });
    expect(names.choices).toEqual([{ name: 'Thug', value: 'Thug' }]);
    const skills = await asDispatcher({ command: 'roll challenge', options: { npc: 'Thug', skill: 'hand' }, focused: 'skill' });
    expect(skills.choices).toEqual([{ name: 'Handgun Handling (40)', value: 'Handgun Handling' }]);

    const die = rollD100(seededRng('npc-seed-a'));
    // Posted under the NPC's name through the channel's webhook (test/e2e/npc-voice.test.ts).
    const rolled = postedAs(sandbox, await asDispatcher({ command: 'roll challenge', options: { npc: 'thug', skill: 'handgun handling', cl: 90, archetypes: 'brute' } }), 'Thug');
    const total = die.value + 40 + 5 - 10;
    expect(textOf(rolled)).toContain('**Thug**');
    expect(textOf(rolled)).toContain(`${die.value} (D100) + 40 Handgun Handling + 5 Brute − 10 Drunk (condition) = **${total}**`);

    // Certain, then forced.
    expect(textOf(postedAs(sandbox, await asDispatcher({ command: 'roll challenge', options: { npc: 'Thug', skill: 'Handgun Handling', cl: 10 } }), 'Thug'))).toContain('No roll needed');
    const forced = postedAs(sandbox, await asDispatcher({ command: 'roll challenge', options: { npc: 'Thug', skill: 'Handgun Handling', cl: 10, force: true } }), 'Thug');
    expect(textOf(forced)).toMatch(/\[\d\]\[\d\] → \d+/);
    const rolls = await storedRolls();
    expect(rolls).toHaveLength(2);
    expect(rolls[1]).toMatchObject({ userId: sandbox.fake.user('dee').id, npc: 'Thug', secret: false, total });

    const unknown = await asDispatcher({ command: 'roll challenge', options: { npc: 'Thugg', skill: 'Handgun Handling', cl: 90 } });
    expect(unknown.content).toContain('There is no NPC named **Thugg**');
  });

  it('a player cannot roll for an NPC, make a secret roll or force one; nothing is rolled', async () => {
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Handgun Handling', level: 50 } });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ npc: 'Thug', skill: 'Handgun Handling', cl: 90 }, `Only a Dispatcher can roll for an NPC. ${DEFAULT_RULE}`],
      [{ skill: 'Handgun Handling', cl: 90, secret: true }, `Only a Dispatcher can make a secret roll. ${DEFAULT_RULE}`],
      [{ skill: 'Handgun Handling', cl: 10, force: true }, `Only a Dispatcher can force a roll whose outcome is already certain. ${DEFAULT_RULE} Leave \`force\` out.`],
    ];
    for (const [options, message] of cases) {
      const refused = await sandbox.one({ user: 'mike', command: 'roll challenge', options });
      expect(refused, JSON.stringify(options)).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
      expect(refused.content).toBe(`⚠️ ${message}`);
    }
    expect(await storedRolls()).toEqual([]);
    expect(sandbox.fake.messages()).toHaveLength(0);
  });

  it('a secret NPC roll is shown only to the Dispatcher, stored, and replayed only for a Dispatcher, privately', async () => {
    const secret = await asDispatcher({ command: 'roll challenge', options: { npc: 'Thug', skill: 'Handgun Handling', cl: 60, secret: true } });
    expect(secret).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(sandbox.fake.messages()).toHaveLength(0);
    const rollId = /Roll (\w{8})/.exec(textOf(secret))![1]!;
    const [stored] = await storedRolls();
    expect(stored).toMatchObject({ id: rollId, kind: 'challenge', secret: true, npc: 'Thug', seed: 'npc-seed-a' });

    const player = await sandbox.one({ user: 'mike', command: 'roll replay', options: { id: rollId } });
    expect(player).toMatchObject({ ephemeral: true });
    expect(player.content).toBe(`⚠️ Only a Dispatcher can replay a secret roll. ${DEFAULT_RULE}`);
    const replay = await asDispatcher({ command: 'roll replay', options: { id: rollId } });
    expect(replay).toMatchObject({ ephemeral: true });
    expect(textOf(replay)).toContain('the dice match');
    expect(sandbox.fake.messages()).toHaveLength(0);
  });
});
