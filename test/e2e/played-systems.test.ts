// The bot registers one command list, globally, for every server; which rule systems a server plays
// (`/config systems`) is applied when a command arrives: a command of another system answers privately how to turn
// it on, and /help lists and suggests only what is played there. Through the real bot and the fake Discord, which
// is asked what each server offers.
import { REST, Routes } from 'discord.js';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { deployCommands } from '../../src/deploy.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

const ADMIN = { user: 'olga', permissions: ['ManageGuild'] };
const NO_PINGS = { parse: [] };
const EVERY = ['blind', 'code', 'config', 'contest', 'd10', 'dispatch', 'help', 'initiative', 'journal', 'log', 'npc', 'pool', 'roll', 'session', 'sheet', 'stats', 'table', 'tactics'];
const SEED_NUMBER = /seed\s*#?\s*\d/i;

type Definition = { name: string; description: string; options?: Array<{ name: string }> };
const offered = (guild?: string) => sandbox().fake.commands(guild) as Definition[];
const names = (guild?: string) => offered(guild).map((command) => command.name).sort();

async function playOnly(play: string) {
  const reply = await sandbox().one({ ...ADMIN, command: 'config systems', options: { play } });
  expect(reply).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
  return reply.content ?? '';
}

/** What /help's `command:` autocomplete suggests there for what was typed. */
async function helpSuggestions(typed: string, guild?: string): Promise<string[]> {
  const suggested = await sandbox().one({ user: 'mike', ...(guild ? { guild } : {}), command: 'help', options: { command: typed }, focused: 'command' });
  return (suggested.choices as Array<{ value: string }>).map((choice) => choice.value);
}

describe('/config systems', () => {
  it('every server is offered every command and context menu from one global list, registered once at start', () => {
    expect(names()).toEqual(EVERY);
    expect(names(sandbox().fake.guild('Westside').id)).toEqual(EVERY);
    expect(sandbox().fake.contextMenus('Westside')).toEqual(sandbox().fake.contextMenus());
    expect(sandbox().fake.commandWrites('global')).toBe(1);
    // No server has a list of its own: Discord would show its commands beside the global ones.
    expect(sandbox().fake.commandWrites()).toBe(0);
    expect(sandbox().fake.commandWrites('Westside')).toBe(0);
  });

  it('d6 pools only: applied at once with nothing registered, and the answer says what members see and where to hide commands', async () => {
    const saved = await playOnly('d6 pools');
    expect(saved).toContain('This server plays **d6 pools with pushing**, from now on.');
    expect(saved).toContain("Members still see every command in Discord's `/` list: one of another system answers them, privately, how to turn it on, and `/help` lists only the commands played here.");
    expect(saved).toContain('Server Settings → Integrations → Tac Talk Bot');
    expect(saved).toContain('New sheets are now **d6 pools with pushing** sheets by default');
    expect(names()).toEqual(EVERY);
    expect(sandbox().fake.commandWrites('global')).toBe(1);
    expect(sandbox().fake.commandWrites()).toBe(0);

    const settings = await sandbox().bot.store.servers.settings(sandbox().fake.guildId);
    expect(settings).toMatchObject({ playedSystems: '["d6-pool"]', defaultSystem: 'd6-pool' });
    const shown = textOf(await sandbox().one({ user: 'mike', command: 'config show' }));
    expect(shown).toContain('Systems played\nd6 pools with pushing (`/pool`). Change them with `/config systems`.');
    // Contests and players' own challenge rolls are Tac Talk's: not shown to a server that does not play it.
    expect(shown).not.toContain('Contest timeout');
    expect(shown).not.toContain('/roll challenge');
  });

  it('a command of a system the server does not play is refused privately, with how to turn it on, from the next command on', async () => {
    await playOnly('d6 pools');
    const tactics = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Aim' } });
    expect(tactics).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(tactics.content).toBe(
      '⚠️ `/tactics check` is for d100 roll-under tactics, which this server does not play (it plays d6 pools with pushing). ' +
        'Someone with Manage Server can add it with `/config systems`; `/help` lists the commands played here.',
    );
    const challenge = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90, level: 40 } });
    expect(challenge.content).toContain('`/roll challenge` is for Tac Talk (Decision Engine), which this server does not play');
    // What every server keeps still works there.
    const dice = await sandbox().act({ user: 'mike', command: 'roll dice', options: { expression: '2d6' } });
    expect(dice.responses.map((response) => response.ephemeral)).not.toContain(true);
    expect(sandbox().fake.messages()).toHaveLength(1);
  });

  it('/help and its suggestions leave out what this server does not play, while a server that plays it sees it', async () => {
    await playOnly('d6 pools');
    const here = textOf(await sandbox().one({ user: 'mike', command: 'help' }));
    expect(here).toContain('**/pool**');
    expect(here).toContain('**/roll** dice · replay');
    for (const gone of ['/tactics', '/code', '/d10', '/contest']) expect(here).not.toContain(gone);
    expect(here).toContain('**/roll** dice · replay · save · saved · saved-list · saved-delete (Roll any dice or your saved rolls)');
    expect(await helpSuggestions('ta')).not.toContain('tactics');
    expect(await helpSuggestions('roll')).not.toContain('roll challenge');
    expect(await helpSuggestions('roll')).toContain('roll dice');
    expect(await helpSuggestions('')).not.toContain('tactics');
    // A command of another system suggests nothing of its own there, only how to turn its system on.
    const skill = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Cl' }, focused: 'skill' });
    expect(skill.choices).toEqual([{ name: '/roll challenge is for Tac Talk (Decision Engine), not played here: /config systems adds it', value: '(not played here)' }]);
    const asked = await sandbox().one({ user: 'mike', command: 'help', options: { command: 'tactics check' } });
    expect(asked).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(asked.content).toContain('`/tactics check` is for d100 roll-under tactics, which this server does not play');
    expect(asked.content).toContain('`/config systems`');
    // /help command:roll shows only the subcommands played here.
    const roll = textOf(await sandbox().one({ user: 'mike', command: 'help', options: { command: 'roll' } }));
    expect(roll).toContain('/roll dice');
    expect(roll).not.toContain('/roll challenge');

    const westside = sandbox().fake.guild('Westside').id;
    const there = textOf(await sandbox().one({ user: 'mike', guild: westside, command: 'help' }));
    expect(there).toContain('**/tactics**');
    expect(there).toContain('**/roll** challenge');
    expect(await helpSuggestions('ta', westside)).toContain('tactics');
    const skill2 = await sandbox().one({ user: 'mike', guild: westside, command: 'roll challenge', options: { skill: 'Cl' }, focused: 'skill' });
    expect(JSON.stringify(skill2.choices)).not.toContain('not played here');
    expect(textOf(await sandbox().one({ user: 'mike', guild: westside, command: 'help', options: { command: 'tactics check' } }))).toContain('/tactics check');
    const tactics = await sandbox().one({ user: 'mike', guild: westside, command: 'tactics check', options: { attribute: 'Aim' } });
    expect(tactics.content ?? '').not.toContain('/config systems');
  });

  it('a restart registers nothing when the commands did not change, and each server keeps what it plays', async () => {
    await playOnly('d6 pools, d10');
    sandbox().fake.guild('Westside');
    const traffic = sandbox().fake.traffic.summary().byTarget.commands ?? 0;
    await sandbox().restartBot();
    expect(sandbox().fake.commandWrites('global')).toBe(1);
    expect(sandbox().fake.traffic.summary().byTarget.commands ?? 0).toBe(traffic);
    expect(names()).toEqual(EVERY);
    expect((await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Aim' } })).content).toContain('which this server does not play');
  });

  it('without a choice it offers a menu of the systems, the played ones ticked; the menu’s choice is saved and applied', async () => {
    const menu = await sandbox().one({ ...ADMIN, command: 'config systems' });
    expect(menu).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(menu.content).toContain('**Which systems does this server play?** Their commands run here and `/help` lists them');
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
    expect(chosen.content).toContain('This server plays **Tac Talk (Decision Engine) and d10 pools**, from now on.');
    expect(chosen.components).toEqual([]);
    expect(await helpSuggestions('')).toEqual(expect.arrayContaining(['contest', 'd10', 'dispatch', 'roll', 'table']));
    expect(await helpSuggestions('')).not.toContain('pool');
    expect(sandbox().fake.commandWrites('global')).toBe(1);
  });

  it('all: every command played again; a default system the server does not play is refused', async () => {
    await playOnly('d10 pools');
    const refused = await sandbox().one({ ...ADMIN, command: 'config system', options: { name: 'tactalk' } });
    expect(refused.content).toContain('This server does not play Tac Talk (Decision Engine) (it plays d10 pools (`/d10`)). Add it with `/config systems` first.');
    await playOnly('all');
    expect((await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).playedSystems).toBeNull();
    expect(await helpSuggestions('')).toEqual(expect.arrayContaining(EVERY));
  });

  it('refuses a system it does not know, naming the ones it does, and changes nothing', async () => {
    const reply = await playOnly('d6 pools, d20 stuff');
    expect(reply).toContain('No system is called "d20 stuff". Name them by Tac Talk (Decision Engine) (`tactalk`)');
    expect((await sandbox().bot.store.servers.settings(sandbox().fake.guildId)).playedSystems).toBeNull();
  });
});

describe('the fake Discord', () => {
  it('refuses command creates past 200 a day in a server, as Discord does (code 30034): a bot that loops is caught', async () => {
    const rest = new REST({ api: sandbox().fake.restApi, retries: 0 }).setToken(sandbox().fake.token);
    const route = Routes.applicationGuildCommands(sandbox().fake.applicationId, sandbox().fake.guild('Loop').id);
    const batch = (from: number) => Array.from({ length: 100 }, (_, i) => ({ name: `c${from + i}`, description: 'a command' }));
    await rest.put(route, { body: batch(0) });
    await rest.put(route, { body: batch(0) }); // the same names again create nothing
    await rest.put(route, { body: batch(100) });
    await expect(rest.put(route, { body: batch(200) })).rejects.toThrow(/daily application command creates/);
    expect(sandbox().fake.violations).toEqual([expect.stringContaining('30034')]);
    sandbox().fake.clearViolations();
  });
});

describe('npm run deploy', () => {
  it('registers the global list even when unchanged, and clears the lists an older version left in servers', async () => {
    const westside = sandbox().fake.guild('Westside').id;
    const rest = new REST({ api: sandbox().fake.restApi }).setToken(sandbox().fake.token);
    // What an older version left: Westside's own list, its digest kept with the server's settings.
    await rest.put(Routes.applicationGuildCommands(sandbox().fake.applicationId, westside), { body: [{ name: 'roll', description: 'an old /roll of its own' }] });
    await sandbox().bot.store.servers.update(westside, { commandsDigest: 'an older version’s list' });
    expect(names(westside).filter((name) => name === 'roll')).toHaveLength(2);
    const done = await deployCommands({ rest, applicationId: sandbox().fake.applicationId, store: sandbox().bot.store, log: pino({ level: 'silent' }), guildId: null, scope: 'test' });
    expect(done).toEqual({ global: { kind: 'registered', commands: expect.any(Number) }, ownListsCleared: 1, ownListsFailed: 0 });
    expect(sandbox().fake.commandWrites('global')).toBe(2);
    expect(names(westside)).toEqual(EVERY);
    expect((await sandbox().bot.store.servers.settings(westside)).commandsDigest).toBeNull();
  });

  it('clears the list of the server named by DISCORD_GUILD_ID though the database never knew of it, and makes it no settings row', async () => {
    const northside = sandbox().fake.guild('Northside').id;
    const rest = new REST({ api: sandbox().fake.restApi }).setToken(sandbox().fake.token);
    // Registered by hand, or by another copy of the bot: nothing in this bot's database says so.
    await rest.put(Routes.applicationGuildCommands(sandbox().fake.applicationId, northside), { body: [{ name: 'roll', description: 'a /roll registered by hand' }] });
    expect(names(northside).filter((name) => name === 'roll')).toHaveLength(2);
    const done = await deployCommands({ rest, applicationId: sandbox().fake.applicationId, store: sandbox().bot.store, log: pino({ level: 'silent' }), guildId: northside, scope: 'test' });
    expect(done).toMatchObject({ ownListsCleared: 1, ownListsFailed: 0 });
    expect(names(northside)).toEqual(EVERY);
    expect(await sandbox().bot.store.db.server.findUnique({ where: { guildId: northside } })).toBeNull();
  });
});

describe('no seed numbers', () => {
  it('in the list the bot registers, in what /config systems answers, nor on the d10 initiative tracker', async () => {
    expect(JSON.stringify(offered())).not.toMatch(SEED_NUMBER);
    for (const play of ['tactalk', 'd100 tactics', 'die codes', 'd6 pools', 'd10 pools', 'all']) expect(await playOnly(play)).not.toMatch(SEED_NUMBER);
    const { responses } = await sandbox().act({ user: 'dee', roles: ['dispatcher'], command: 'initiative start', options: { rule: 'd10-phase' } });
    const tracker = textOf(responses.at(-1)!);
    expect(tracker).toContain('d10 pools: actions are declared in order of Initiative, lowest to highest');
    expect(tracker).not.toMatch(SEED_NUMBER);
  });
});
