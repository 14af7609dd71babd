// A server's slash list holds the commands of the systems it plays (`/config systems`) and the common ones, and
// nothing else: the bot registers it in each server itself, once per change (Discord allows 200 command creates a
// day per server), never globally. Through the real bot and the fake Discord, which is asked what each server offers.
import { REST, Routes } from 'discord.js';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { deploySlashLists } from '../../src/deploy.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

const sandbox = useTestSandbox();

const ADMIN = { user: 'olga', permissions: ['ManageGuild'] };
const NO_PINGS = { parse: [] };
const COMMON = ['blind', 'config', 'help', 'initiative', 'journal', 'log', 'npc', 'session', 'sheet', 'stats'];
const EVERY = ['blind', 'code', 'config', 'contest', 'd10', 'dispatch', 'help', 'initiative', 'journal', 'log', 'npc', 'pool', 'roll', 'session', 'sheet', 'stats', 'table', 'tactics'];
const SEED_NUMBER = /seed\s*#?\s*\d/i;

type Definition = { name: string; description: string; options?: Array<{ name: string }> };
const offered = (guild?: string) => sandbox().fake.commands(guild) as Definition[];
const names = (guild?: string) => offered(guild).map((command) => command.name).sort();

/** Resolves once the bot has registered a list in the guild (it does so on the guild's GUILD_CREATE). */
async function registeredIn(guild: string): Promise<void> {
  await until(() => sandbox().fake.commandWrites(guild) > 0, `a slash list registered in ${guild}`);
  await sandbox().bot.commandsReady;
}

async function playOnly(play: string) {
  const reply = await sandbox().one({ ...ADMIN, command: 'config systems', options: { play } });
  expect(reply).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
  return reply.content ?? '';
}

describe('/config systems', () => {
  it('a new server plays every system: its list has every command, registered once at start, and nothing global', () => {
    expect(names()).toEqual(EVERY);
    expect(sandbox().fake.commandWrites()).toBe(1);
    expect(sandbox().fake.commandWrites('global')).toBe(0);
  });

  it('d6 pools only: the list has /pool and the common commands, /roll cut to dice, replay and saved rolls; chosen again, nothing is registered', async () => {
    const saved = await playOnly('d6 pools');
    expect(saved).toContain('This server plays **d6 pools with pushing**.');
    expect(saved).toContain('Its slash list now has `/sheet`, `/roll`, `/npc`, `/config`, `/log`, `/pool`, `/initiative`, `/session`, `/journal`, `/blind`, `/stats`, `/help`.');
    expect(saved).toContain('New sheets are now **d6 pools with pushing** sheets by default');
    expect(names()).toEqual([...COMMON, 'pool', 'roll'].sort());
    const roll = offered().find((command) => command.name === 'roll')!;
    expect(roll.options!.map((option) => option.name)).toEqual(['dice', 'replay', 'save', 'saved', 'saved-list', 'saved-delete']);
    expect(roll.description).toBe('Roll any dice or your saved rolls, or replay a stored roll from its id');
    expect(sandbox().fake.commandWrites()).toBe(2);

    const again = await playOnly('/pool');
    expect(again).toContain('Its slash list already had exactly');
    expect(sandbox().fake.commandWrites()).toBe(2);

    const settings = await sandbox().bot.store.servers.settings(sandbox().fake.guildId);
    expect(settings).toMatchObject({ playedSystems: '["d6-pool"]', defaultSystem: 'd6-pool' });
    const shown = textOf(await sandbox().one({ user: 'mike', command: 'config show' }));
    expect(shown).toContain('Systems played\nd6 pools with pushing (`/pool`). Change them with `/config systems`.');
    // Contests and players' own challenge rolls are Tac Talk's: not shown to a server that does not play it.
    expect(shown).not.toContain('Contest timeout');
    expect(shown).not.toContain('/roll challenge');
  });

  it('a command the server no longer plays, from a Discord that has not refreshed its list, is refused privately with /config systems', async () => {
    await playOnly('d6 pools');
    const tactics = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Aim' } });
    expect(tactics).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(tactics.content).toBe(
      '⚠️ `/tactics check` is for d100 roll-under tactics, which this server does not play (it plays d6 pools with pushing). ' +
        'Someone with Manage Server can add it with `/config systems`. Your Discord may still show the old list of commands for a moment.',
    );
    const challenge = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90, level: 40 } });
    expect(challenge.content).toContain('`/roll challenge` is for Tac Talk (Decision Engine), which this server does not play');
    // What every server keeps still works there.
    const dice = await sandbox().act({ user: 'mike', command: 'roll dice', options: { expression: '2d6' } });
    expect(dice.responses.map((response) => response.ephemeral)).not.toContain(true);
    expect(sandbox().fake.messages()).toHaveLength(1);
  });

  it('another server keeps every command, and its /tactics is not refused', async () => {
    await playOnly('d6 pools');
    const westside = sandbox().fake.guild('Westside');
    await registeredIn('Westside');
    expect(names('Westside')).toEqual(EVERY);
    expect(names()).not.toContain('tactics');
    const tactics = await sandbox().one({ user: 'mike', guild: 'Westside', command: 'tactics check', options: { attribute: 'Aim' } });
    expect(tactics.content).not.toContain('/config systems');
    expect(westside.id).not.toBe(sandbox().fake.guildId);
  });

  it('a restart registers nothing when no list changed, and keeps each server’s list', async () => {
    await playOnly('d6 pools, d10');
    sandbox().fake.guild('Westside');
    await registeredIn('Westside');
    const writes = [sandbox().fake.commandWrites(), sandbox().fake.commandWrites('Westside')];
    await sandbox().restartBot();
    expect([sandbox().fake.commandWrites(), sandbox().fake.commandWrites('Westside')]).toEqual(writes);
    expect(names()).toEqual([...COMMON, 'd10', 'pool', 'roll'].sort());
    expect(names('Westside')).toEqual(EVERY);
  });

  it('without a choice it offers a menu of the systems, the played ones ticked; the menu’s choice is saved and registered', async () => {
    const menu = await sandbox().one({ ...ADMIN, command: 'config systems' });
    expect(menu).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(menu.content).toContain('**Which systems does this server play?**');
    const select = (menu.components as Array<{ components: Array<{ custom_id: string; options: Array<{ label: string; value: string; description: string; default: boolean }> }> }>)[0]!.components[0]!;
    expect(select.options.map((option) => [option.label, option.description, option.default])).toEqual([
      ['Tac Talk (Decision Engine)', '/roll, /contest, /dispatch, /table', true],
      ['d100 roll-under tactics', '/tactics', true],
      ['Die codes and result points', '/code', true],
      ['d6 pools with pushing', '/pool', true],
      ['d10 pools', '/d10', true],
    ]);
    const chosen = await sandbox().one({ ...ADMIN, select: select.custom_id, values: ['tactalk', 'd10-pool'], message: menu.messageId! });
    expect(chosen.kind).toBe('update');
    expect(chosen.content).toContain('This server plays **Tac Talk (Decision Engine) and d10 pools**.');
    expect(chosen.components).toEqual([]);
    expect(names()).toEqual([...COMMON, 'contest', 'd10', 'dispatch', 'roll', 'table'].sort());
    expect(offered().find((command) => command.name === 'roll')!.options!.map((option) => option.name)).toContain('challenge');
  });

  it('all: every command again; a default system the server does not play is refused', async () => {
    await playOnly('d10 pools');
    const refused = await sandbox().one({ ...ADMIN, command: 'config system', options: { name: 'tactalk' } });
    expect(refused.content).toContain('This server does not play Tac Talk (Decision Engine) (it plays d10 pools (`/d10`)). Add it with `/config systems` first.');
    await playOnly('all');
    expect(names()).toEqual(EVERY);
    expect((await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).playedSystems).toBeNull();
  });

  it('refuses a system it does not know, naming the ones it does, and changes nothing', async () => {
    const reply = await playOnly('d6 pools, d20 stuff');
    expect(reply).toContain('No system is called "d20 stuff". Name them by Tac Talk (Decision Engine) (`tactalk`)');
    expect(names()).toEqual(EVERY);
    expect(sandbox().fake.commandWrites()).toBe(1);
  });
});

describe('the fake Discord', () => {
  it('refuses command creates past 200 a day in a server, as Discord does (code 30034): a bot that loops is caught', async () => {
    const rest = new REST({ api: sandbox().fake.restApi, retries: 0 }).setToken(sandbox().fake.token);
    const route = Routes.applicationGuildCommands(sandbox().fake.applicationId, sandbox().fake.guild('Loop').id);
    const batch = (from: number) => Array.from({ length: 100 }, (_, i) => ({ name: `c${from + i}`, description: 'a command' }));
    await registeredIn('Loop'); // the bot's own list: 14 creates
    await rest.put(route, { body: batch(0) });
    await rest.put(route, { body: batch(0) }); // the same names again create nothing
    await expect(rest.put(route, { body: batch(100) })).rejects.toThrow(/daily application command creates/);
    expect(sandbox().fake.violations).toEqual([expect.stringContaining('30034')]);
    sandbox().fake.clearViolations();
  });
});

describe('npm run deploy', () => {
  it('removes the global commands an older version registered and registers each server’s list, even an unchanged one', async () => {
    await playOnly('d6 pools');
    sandbox().fake.guild('Westside');
    await registeredIn('Westside');
    const rest = new REST({ api: sandbox().fake.restApi }).setToken(sandbox().fake.token);
    await rest.put(Routes.applicationCommands(sandbox().fake.applicationId), { body: [{ name: 'roll', description: 'an old global /roll' }] });
    const writes = sandbox().fake.commandWrites();
    const done = await deploySlashLists({ rest, applicationId: sandbox().fake.applicationId, store: sandbox().bot.store, log: pino({ level: 'silent' }), guildId: null, scope: 'test' });
    expect(done.globalRemoved).toBe(1);
    expect(done.servers.map((server) => [server.guildId, server.outcome.kind])).toEqual(expect.arrayContaining([
      [sandbox().fake.guildId, 'registered'],
      [sandbox().fake.guild('Westside').id, 'registered'],
    ]));
    expect(done.servers).toHaveLength(2);
    expect(sandbox().fake.commandWrites()).toBe(writes + 1);
    expect(names()).toEqual([...COMMON, 'pool', 'roll'].sort());
    expect(names('Westside')).toEqual(EVERY);
  });
});

describe('no seed numbers', () => {
  it('in any list the bot registers, nor on the d10 initiative tracker', async () => {
    for (const play of ['tactalk', 'd100 tactics', 'die codes', 'd6 pools', 'd10 pools', 'all']) {
      await playOnly(play);
      expect(JSON.stringify(offered())).not.toMatch(SEED_NUMBER);
    }
    const { responses } = await sandbox().act({ user: 'dee', roles: ['dispatcher'], command: 'initiative start', options: { rule: 'd10-phase' } });
    const tracker = textOf(responses.at(-1)!);
    expect(tracker).toContain('d10 pools: actions are declared in order of Initiative, lowest to highest');
    expect(tracker).not.toMatch(SEED_NUMBER);
  });
});
