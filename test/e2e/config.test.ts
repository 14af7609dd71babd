// /config and the Dispatcher rule, through the real bot and the fake Discord.
import { describe, expect, it } from 'vitest';
import type { SandboxInteractionRequest } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

const NO_PINGS = { parse: [] };
/** Olga has Manage Server and no role. */
const ADMIN = { user: 'olga', permissions: ['ManageGuild'] };
const REFUSED = "⚠️ Only members with the Manage Server permission can change this server's settings. Ask a server admin.";
const DEFAULT_RULE = 'Here a Dispatcher has a role named @Dispatcher or the Manage Server permission; a member with Manage Server can pick one role instead with `/config dispatcher-role`.';
const GAME_MASTER_RULE = 'Here a Dispatcher has the @Game Master role; a member with Manage Server can change that with `/config dispatcher-role`.';

async function settingsShown(request: Omit<SandboxInteractionRequest, 'command'> = { user: 'mike' }): Promise<string> {
  const shown = await sandbox().one({ ...request, command: 'config show' });
  expect(shown).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
  return textOf(shown);
}

/** Whether this member may act as a Dispatcher: /npc list answers them, or refuses with the rule. */
async function npcListAs(request: Omit<SandboxInteractionRequest, 'command'>): Promise<string> {
  const reply = await sandbox().one({ ...request, command: 'npc list' });
  expect(reply).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
  return textOf(reply);
}

describe('/config', () => {
  it('shows anyone the settings and which Dispatcher rule applies', async () => {
    const text = await settingsShown();
    expect(text).toContain('No Dispatcher role is set, so members with a role named @Dispatcher or the Manage Server permission.');
    expect(text).toContain('Each step of a contest expires after **15 min**');
    expect(text).toContain('`contest_adds_own_skill`: **off**');
    expect(text).toContain('Tac Talk (Decision Engine)');
    expect(text).toContain('Systems played\nAll of them: Tac Talk (Decision Engine) (`/roll`), d100 roll-under tactics (`/tactics`), Die codes and result points (`/code`), d6 pools with pushing (`/pool`) and d10 pools (`/d10`). Change them with `/config systems`.');
    expect(text).toContain("Players' own challenge rolls\n**on**: players may make their own `/roll challenge` and `/roll linked`");
  });

  it('player-challenge-rolls: on by default, switched off and on again by Manage Server, and /config show says so', async () => {
    expect((await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).playerChallengeRolls).toBe(true);
    const off = await sandbox().one({ ...ADMIN, command: 'config player-challenge-rolls', options: { state: 'off' } });
    expect(off).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(off.content).toContain("Players' own challenge rolls are now **off**: a player states an intent with `/roll intent`");
    expect(await settingsShown()).toContain("Players' own challenge rolls\n**off**");
    expect((await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).playerChallengeRolls).toBe(false);
    await sandbox().one({ ...ADMIN, command: 'config player-challenge-rolls', options: { state: 'on' } });
    expect(await settingsShown()).toContain("Players' own challenge rolls\n**on**");
  });

  it('a member with Manage Server changes each setting, and /config show says so', async () => {
    const role = await sandbox().one({ ...ADMIN, command: 'config dispatcher-role', options: { role: 'Game Master' } });
    expect(role).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(role.content).toBe('Dispatchers: Members with the @Game Master role (set with `/config dispatcher-role`).');
    expect(role.content).not.toContain('<@&');
    expect((await sandbox().one({ ...ADMIN, command: 'config contest-timeout', options: { minutes: 30 } })).content).toContain('now expires after **30 min**');
    expect((await sandbox().one({ ...ADMIN, command: 'config house-rule', options: { name: 'contest_adds_own_skill', state: 'on' } })).content).toBe(
      'House rule `contest_adds_own_skill` is now **on**. New contests use it.',
    );
    expect((await sandbox().one({ ...ADMIN, command: 'config system', options: { name: 'tactalk' } })).content).toContain('**Tac Talk (Decision Engine)**');

    const text = await settingsShown();
    expect(text).toContain('Members with the @Game Master role');
    expect(text).toContain('after **30 min**');
    expect(text).toContain('`contest_adds_own_skill`: **on**');
    expect(await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).toMatchObject({
      dispatcherRoleId: sandbox().fake.role('Game Master').id,
      contestTimeoutMinutes: 30,
      contestAddsOwnSkill: true,
      defaultSystem: 'tactalk',
    });

    // Leaving the role out goes back to the default rule; @everyone is refused.
    expect((await sandbox().one({ ...ADMIN, command: 'config dispatcher-role' })).content).toContain('No Dispatcher role is set');
    const everyone = await sandbox().one({ ...ADMIN, command: 'config dispatcher-role', options: { role: '@everyone' } });
    expect(everyone.content).toContain('@everyone cannot be the Dispatcher role');
    expect((await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).dispatcherRoleId).toBeNull();
    const off = await sandbox().one({ ...ADMIN, command: 'config house-rule', options: { name: 'contest_adds_own_skill', state: 'off' } });
    expect(off.content).toContain('is now **off**');
  });

  it('flanking_needs_own_crit (d100 tactics): off by default, switched by Manage Server; each house rule is shown where its system is played', async () => {
    expect(await settingsShown()).toContain("`flanking_needs_own_crit`: **off** (a d100 tactics attacker flanking checks Crit only with Crit above 0: flanking's +50 grants no Crit check of its own, the literal reading of seed 001)");
    expect((await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).flankingNeedsOwnCrit).toBe(false);
    const on = await sandbox().one({ ...ADMIN, command: 'config house-rule', options: { name: 'flanking_needs_own_crit', state: 'on' } });
    expect(on).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(on.content).toBe('House rule `flanking_needs_own_crit` is now **on**. New `/tactics attack`s use it; attacks already rolled keep the reading they were rolled with.');
    expect((await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).flankingNeedsOwnCrit).toBe(true);
    expect(await settingsShown()).toContain('`flanking_needs_own_crit`: **on**');

    await sandbox().one({ ...ADMIN, command: 'config systems', options: { play: 'd100 tactics' } });
    const tacticsOnly = await settingsShown();
    expect(tacticsOnly).toContain('House rules\n`flanking_needs_own_crit`: **on**');
    expect(tacticsOnly).not.toContain('contest_adds_own_skill');
    await sandbox().one({ ...ADMIN, command: 'config systems', options: { play: 'tactalk' } });
    const tactalkOnly = await settingsShown();
    expect(tactalkOnly).toContain('House rules\n`contest_adds_own_skill`: **off**');
    expect(tactalkOnly).not.toContain('flanking_needs_own_crit');
    await sandbox().one({ ...ADMIN, command: 'config systems', options: { play: 'd6 pools' } });
    expect(await settingsShown()).not.toContain('House rules');
  });

  it('refuses every change to a member without Manage Server, a Dispatcher too, privately, and changes nothing', async () => {
    const before = await settingsShown();
    const changes: Array<[string, Record<string, unknown>]> = [
      ['config dispatcher-role', { role: 'Game Master' }],
      ['config dispatcher-role', {}],
      ['config contest-timeout', { minutes: 1 }],
      ['config house-rule', { name: 'contest_adds_own_skill', state: 'on' }],
      ['config house-rule', { name: 'flanking_needs_own_crit', state: 'on' }],
      ['config system', { name: 'tactalk' }],
      ['config player-challenge-rolls', { state: 'off' }],
      ['config systems', { play: 'd6 pools' }],
      ['config systems', {}],
    ];
    for (const roles of [[], ['dispatcher']]) {
      for (const [command, options] of changes) {
        const refused = await sandbox().one({ user: 'mike', roles, command, options });
        expect(refused, command).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
        expect(refused.content, command).toBe(REFUSED);
      }
    }
    expect(await settingsShown()).toBe(before);
    expect(await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).toMatchObject({
      dispatcherRoleId: null,
      contestTimeoutMinutes: 15,
      contestAddsOwnSkill: false,
      flankingNeedsOwnCrit: false,
      defaultSystem: 'tactalk',
      playerChallengeRolls: true,
      playedSystems: null,
    });
    expect(sandbox().fake.messages()).toHaveLength(0);
  });
});

describe('the Dispatcher rule', () => {
  it('with no role set: a role named Dispatcher or Manage Server makes a Dispatcher, nothing else does', async () => {
    expect(await npcListAs({ user: 'dee', roles: ['Dispatcher'] })).toContain('NPCs of this server');
    expect(await npcListAs(ADMIN)).toContain('NPCs of this server');
    expect(await npcListAs({ user: 'ada', permissions: ['Administrator'] })).toContain('NPCs of this server');
    expect(await npcListAs({ user: 'mike', roles: ['Game Master'] })).toBe(`⚠️ Only a Dispatcher can list the NPCs. ${DEFAULT_RULE}`);
    // The Manage Server fallback creates NPCs too.
    const created = await sandbox().one({ ...ADMIN, command: 'npc create', options: { name: 'Thug' } });
    expect(created.content).toContain('Created the NPC **Thug**');
  });

  it('a configured role replaces the default: only its members are Dispatchers, and refusals name it', async () => {
    await sandbox().one({ ...ADMIN, command: 'config dispatcher-role', options: { role: 'Game Master' } });
    expect(await npcListAs({ user: 'gina', roles: ['Game Master'] })).toContain('NPCs of this server');
    for (const request of [{ user: 'dee', roles: ['Dispatcher'] }, ADMIN, { user: 'mike' }]) {
      expect(await npcListAs(request), JSON.stringify(request)).toBe(`⚠️ Only a Dispatcher can list the NPCs. ${GAME_MASTER_RULE}`);
    }
    // Manage Server still changes the settings, though it no longer makes a Dispatcher.
    await sandbox().one({ ...ADMIN, command: 'config dispatcher-role' });
    expect(await npcListAs({ user: 'dee', roles: ['Dispatcher'] })).toContain('NPCs of this server');
  });

  it('the contest buttons only a Dispatcher may press name the role too', async () => {
    await sandbox().one({ ...ADMIN, command: 'config dispatcher-role', options: { role: 'Game Master' } });
    await sandbox().one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat' } });
    await sandbox().one({ user: 'sasha', command: 'sheet skill set', options: { name: 'CQC', level: 35 } });
    const opening = await sandbox().one({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'Kat disarms Troy', stakes: 'Troy is disarmed', skill: 'CQC', role: 'attacker' } });
    const id = /Contest #(\d+)/.exec(textOf(opening))![1]!;
    const cancel = `contest:cancel:${id}`;
    const refused = await sandbox().one({ user: 'dee', roles: ['Dispatcher'], button: cancel, message: opening.messageId! });
    expect(refused).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(refused.content).toBe(`Only a Dispatcher can do that. ${GAME_MASTER_RULE}`);
    // The cancel updates the contest's message (and the new contest flow may post a line after it).
    const cancelled = await sandbox().act({ user: 'gina', roles: ['Game Master'], button: cancel, message: opening.messageId! });
    expect(cancelled.responses[0]!.kind).toBe('update');
  });

  it('a configured role that was deleted is named as such', async () => {
    await sandbox().one({ ...ADMIN, command: 'config dispatcher-role', options: { role: 'Game Master' } });
    await sandbox().bot.store.servers.update(sandbox().fake.guildId, { dispatcherRoleId: '123456789012345678' });
    expect(await settingsShown()).toContain('the configured Dispatcher role, which no longer exists');
    expect(await npcListAs({ user: 'dee', roles: ['Dispatcher'] })).toContain('The Dispatcher role set here no longer exists; a member with Manage Server can pick another with `/config dispatcher-role`.');
  });

  it('config system accepts all five systems; /sheet create and /npc create default to it; a sheet may name another; /sheet show names it', async () => {
    for (const [id, name] of [['d100-tactics', 'd100 roll-under tactics'], ['result-points', 'Die codes and result points'], ['d6-pool', 'd6 pools with pushing'], ['d10-pool', 'd10 pools'], ['tactalk', 'Tac Talk (Decision Engine)']]) {
      expect((await sandbox().one({ ...ADMIN, command: 'config system', options: { name: id } })).content).toContain(`**${name}** (\`${id}\`)`);
      expect(await settingsShown()).toContain(name);
    }
    await sandbox().one({ ...ADMIN, command: 'config system', options: { name: 'd100-tactics' } });
    const created = (await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Mike' } })).content;
    expect(created).toContain('Created **Mike**');
    expect(created).toContain('d100 roll-under tactics');
    expect((await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Mika', system: 'd6-pool' } })).content).toContain('d6 pools with pushing');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show', options: { name: 'Mike' } }))).toContain('System: d100 roll-under tactics');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).toContain('System: d6 pools with pushing');
    await sandbox().one({ user: 'dee', roles: ['Dispatcher'], command: 'npc create', options: { name: 'Sectoid' } });
    await sandbox().one({ user: 'dee', roles: ['Dispatcher'], command: 'npc create', options: { name: 'Viper', system: 'd10-pool' } });
    const sheets = await sandbox().bot.store.db.operator.findMany({ orderBy: { id: 'asc' } });
    expect(sheets.map((sheet) => [sheet.name, sheet.system])).toEqual([['Mike', 'd100-tactics'], ['Mika', 'd6-pool'], ['Sectoid', 'd100-tactics'], ['Viper', 'd10-pool']]);
  });

  it('a sheet created before any /config system is a Tac Talk sheet', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Mike' } });
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).toContain('System: Tac Talk (Decision Engine)');
  });
});
