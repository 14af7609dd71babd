// /help: the commands by who uses them, one command with its example, autocomplete, and a help entry for every command.
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { definedCommands, helpEntries } from '../../commands/help.js';
import { startDiceNotationThread } from '../../src/engine/dice-notation-thread.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

interface Embed {
  title?: string;
  description?: string;
  fields?: Array<{ name: string; value: string }>;
  footer?: { text: string };
}

function embedOf(response: { embeds: unknown[] }): Embed {
  expect(response.embeds).toHaveLength(1);
  return response.embeds[0] as Embed;
}

/** The text of the overview's fields for one audience (a long one may continue in a "(more)" field). */
function section(embed: Embed, title: string): string {
  return (embed.fields ?? [])
    .filter((field) => field.name === title || field.name === `${title} (more)`)
    .map((field) => field.value)
    .join('\n');
}

/** The subcommands and commands a user can run, with their full option definitions. */
function runnableDefinitions(): Map<string, APIApplicationCommandOption[]> {
  const runnable = new Map<string, APIApplicationCommandOption[]>();
  for (const command of commands) {
    const json = command.data.toJSON();
    const options = json.options ?? [];
    const branches = options.filter((option) => option.type === ApplicationCommandOptionType.Subcommand || option.type === ApplicationCommandOptionType.SubcommandGroup);
    if (branches.length === 0) runnable.set(json.name, options);
    for (const option of branches) {
      if (option.type === ApplicationCommandOptionType.Subcommand) runnable.set(`${json.name} ${option.name}`, option.options ?? []);
      if (option.type === ApplicationCommandOptionType.SubcommandGroup) for (const sub of option.options ?? []) runnable.set(`${json.name} ${option.name} ${sub.name}`, sub.options ?? []);
    }
  }
  return runnable;
}

describe('every command has help', () => {
  it('each command and subcommand has an entry, and no entry names a command that is gone', () => {
    const runnable = [...runnableDefinitions().keys()];
    const entries = helpEntries(commands);
    const missing = runnable.filter((path) => !entries.has(path));
    expect(missing, 'declare their help where the subcommand is declared').toEqual([]);
    expect([...entries.keys()].filter((path) => !runnable.includes(path))).toEqual([]);
    // What /help reads is what Discord is sent: the same paths.
    const fromHelp = definedCommands(commands).map((command) => command.path);
    for (const path of runnable) expect(fromHelp).toContain(path);
  });

  it('every example runs its own command with options it has, the required ones given and numbers in range', () => {
    for (const [path, options] of runnableDefinitions()) {
      const example = helpEntries(commands).get(path)!.example;
      expect(example.startsWith(`/${path}`), example).toBe(true);
      const rest = example.slice(path.length + 1);
      const names = options.map((option) => option.name);
      // "name:value" pairs; a value runs until the next known option name.
      const pattern = new RegExp(`(?:^|\\s)(${names.map((name) => name.replace(/[-]/g, '\\-')).join('|') || '(?!)'}):`, 'g');
      const found = [...rest.matchAll(pattern)];
      expect(rest.replace(pattern, '').trim() === '' || found.length > 0, `${example}: text without an option`).toBe(true);
      if (found.length > 0) expect(rest.slice(0, found[0]!.index).trim(), example).toBe('');
      const given = new Map(found.map((match, index) => [match[1]!, rest.slice(match.index! + match[0].length, found[index + 1]?.index ?? rest.length).trim()]));
      for (const option of options) {
        const value = given.get(option.name);
        if (option.required) expect(value, `${example} lacks ${option.name}`).toBeDefined();
        if (value === undefined) continue;
        expect(value, `${example}: ${option.name} is empty`).not.toBe('');
        if ('choices' in option && option.choices) expect(option.choices.map((choice) => String(choice.value)), example).toContain(value);
        if (option.type === ApplicationCommandOptionType.Integer || option.type === ApplicationCommandOptionType.Number) {
          const number = Number(value);
          expect(Number.isFinite(number), `${example}: ${option.name}`).toBe(true);
          if (option.min_value !== undefined) expect(number, example).toBeGreaterThanOrEqual(option.min_value);
          if (option.max_value !== undefined) expect(number, example).toBeLessThanOrEqual(option.max_value);
        }
        if (option.type === ApplicationCommandOptionType.Boolean) expect(['true', 'false'], example).toContain(value);
        if (option.type === ApplicationCommandOptionType.String && option.max_length !== undefined) expect(value.length, example).toBeLessThanOrEqual(option.max_length);
      }
    }
  });
});

describe('/help', () => {
  it('says privately what the bot does, how to start, and the commands grouped by players, Dispatchers and server admins', async () => {
    const help = await sandbox().one({ user: 'mike', command: 'help' });
    expect(help).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: { parse: [] } });
    const embed = embedOf(help);
    expect(embed.description).toContain('rolls the dice for your table');
    expect(embed.description).toContain('1. Make your character: `/sheet create name:Troy`');
    expect(embed.description).toContain('3. Roll: `/roll challenge skill:Climbing cl:90`');
    const fieldNames = (embed.fields ?? []).map((field) => field.name);
    expect(fieldNames.filter((name) => !name.endsWith('(more)'))).toEqual(['Players', 'Dispatchers (game masters)', 'Server admins', 'Right-click → Apps (press and hold on a phone)']);
    // The context menus, each with what it is used on and how.
    const menus = section(embed, 'Right-click → Apps (press and hold on a phone)');
    expect(menus).toContain('**Replay this roll** (on a message): Right-click a roll’s result');
    expect(menus).toContain('**Add to journal** (on a message)');
    expect(menus).toContain('**Show sheet** (on a member)');
    expect(menus).toContain('**Challenge to a contest** (on a member)');

    const players = section(embed, 'Players');
    expect(players).toContain('**/sheet** create · show · list');
    expect(players).toContain('**/roll** challenge · linked · intent · outcome · dice · replay · save · saved · saved-list · saved-delete (Roll the dice of the Decision Engine)');
    expect(players).toContain('**/table** export · show · list');
    expect(players).not.toContain('/dispatch');
    expect(players).not.toContain('/npc');

    const dispatchers = section(embed, 'Dispatchers (game masters)');
    expect(dispatchers).toContain('No Dispatcher role is set, so members with a role named @Dispatcher or the Manage Server permission.');
    expect(dispatchers).toContain('**/dispatch** challenge · linked');
    expect(dispatchers).toContain('**/table** import · delete');
    expect(dispatchers).toContain('**/npc** create');
    expect(dispatchers).toContain('**/initiative** start · npc · remove · set · end');

    expect(section(embed, 'Server admins')).toContain('**/config** show · dispatcher-role');
    // Every field fits Discord's limit without being cut.
    for (const field of embed.fields ?? []) expect(field.value.endsWith('…'), field.name).toBe(false);
  });

  it('names the role this server chose for its Dispatchers', async () => {
    await sandbox().one({ user: 'olga', permissions: ['ManageGuild'], command: 'config dispatcher-role', options: { role: 'Game Master' } });
    const embed = embedOf(await sandbox().one({ user: 'mike', command: 'help' }));
    expect(section(embed, 'Dispatchers (game masters)')).toContain('Members with the @Game Master role (set with `/config dispatcher-role`).');
  });

  it('command:roll challenge explains it from its definition, with its options, an example and who uses it', async () => {
    const answer = await sandbox().one({ user: 'mike', command: 'help', options: { command: 'roll challenge' } });
    expect(answer).toMatchObject({ kind: 'reply', ephemeral: true });
    const embed = embedOf(answer);
    expect(embed.title).toBe('/roll challenge');
    expect(embed.description).toBe('A challenge roll: D100 + skill + archetype modifiers against a Challenge Level');
    const fields = Object.fromEntries((embed.fields ?? []).map((field) => [field.name, field.value]));
    expect(fields.Options).toContain('`skill` (required): The skill tested, from your active sheet');
    expect(fields.Options).toContain('`cl` (required): The Challenge Level, 0–200');
    expect(fields.Example).toBe('`/roll challenge skill:Climbing cl:90`');
    expect(fields.Who).toBe('Players: everyone in the server.');
  });

  it('a whole command lists its subcommands; a Dispatcher command says who is one here; a typed slash and capitals are fine', async () => {
    const roll = embedOf(await sandbox().one({ user: 'mike', command: 'help', options: { command: '/Roll' } }));
    expect(roll.title).toBe('/roll');
    expect(roll.fields?.[0]).toMatchObject({ name: 'Subcommands' });
    expect(roll.fields?.[0]?.value).toContain('`/roll dice`: Roll any dice');

    const dispatch = textOf(await sandbox().one({ user: 'mike', command: 'help', options: { command: 'dispatch challenge' } }));
    expect(dispatch).toContain('Dispatchers (game masters). No Dispatcher role is set, so members with a role named @Dispatcher');
    expect(dispatch).toContain('/dispatch challenge player:@Mike skill:Climbing cl:90');

    const group = textOf(await sandbox().one({ user: 'mike', command: 'help', options: { command: 'sheet skill' } }));
    expect(group).toContain('`/sheet skill set`: Add a skill or change its level');
  });

  it('says nothing of systems for a subcommand every server has', async () => {
    for (const command of ['config show', 'initiative remove', 'sheet skill set']) {
      const topic = textOf(await sandbox().one({ user: 'mike', command: 'help', options: { command } }));
      expect(topic, command).not.toContain('does not play');
    }
  });

  it('refuses a command that does not exist and says what would work', async () => {
    const refused = await sandbox().one({ user: 'mike', command: 'help', options: { command: 'roll jump' } });
    expect(refused).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(refused.content).toContain('There is no command `/roll jump`. `/help` lists them all. Did you mean `/help command:roll challenge`');
  });

  it('autocompletes command names and subcommands', async () => {
    const typed = await sandbox().one({ user: 'mike', command: 'help', options: { command: 'roll ch' }, focused: 'command' });
    expect(typed.choices).toEqual([{ name: 'roll challenge', value: 'roll challenge' }]);
    const roll = await sandbox().one({ user: 'mike', command: 'help', options: { command: 'roll' }, focused: 'command' });
    const names = (roll.choices as Array<{ value: string }>).map((choice) => choice.value);
    expect(names.slice(0, 7)).toEqual(['roll', 'roll challenge', 'roll dice', 'roll intent', 'roll linked', 'roll outcome', 'roll replay']);
    const nothing = await sandbox().one({ user: 'mike', command: 'help', options: { command: '' }, focused: 'command' });
    expect((nothing.choices as Array<{ value: string }>).map((choice) => choice.value).sort()).toEqual(commands.map((command) => command.data.name).sort());
  });

  it("on a server that plays only some systems, lists only their commands and the common ones", async () => {
    await sandbox().bot.store.servers.update(sandbox().fake.guildId, { playedSystems: JSON.stringify(['d10-pool']), defaultSystem: 'd10-pool' });
    const embed = embedOf(await sandbox().one({ user: 'mike', command: 'help' }));
    const players = section(embed, 'Players');
    expect(players).toContain('**/d10** roll · fastdraw · advanced · extended');
    expect(players).toContain('**/sheet**');
    expect(players).toContain('**/roll** dice · replay');
    for (const gone of ['/tactics', '/code', '/pool', '/contest', '/table', 'challenge']) expect(players).not.toContain(gone);
    expect(section(embed, 'Dispatchers (game masters)')).not.toContain('/dispatch');
    expect(embed.description).toContain('Add a skill (its number of dice): `/sheet skill set name:Firearms level:4`');
    expect(embed.description).toContain('Roll: `/d10 roll dice:Firearms tn:7`');

    const choices = await sandbox().one({ user: 'mike', command: 'help', options: { command: 'ta' }, focused: 'command' });
    expect((choices.choices as Array<{ value: string }>).map((choice) => choice.value)).not.toContain('tactics');
    expect(embed.footer?.text).toBe('One command, with an example: /help command:roll dice');
    // Asked by name, an unplayed command is left out as it is in the list: /help says how to turn it on instead.
    const asked = await sandbox().one({ user: 'mike', command: 'help', options: { command: 'tactics check' } });
    expect(asked).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(asked.content).toContain('`/tactics check` is for d100 roll-under tactics, which this server does not play (it plays d10 pools). Someone with Manage Server can add it with `/config systems`');
  });
});

describe('refusals that say what would work', () => {
  // The notation thread started first, so that the first /roll dice is answered like any other (dice.test.ts).
  beforeAll(() => startDiceNotationThread());

  it('a dice notation, a linked roll or a die code that cannot be read is refused with a valid example', async () => {
    const dice = await sandbox().one({ user: 'mike', command: 'roll dice', options: { expression: '2d6+' } });
    expect(dice).toMatchObject({ ephemeral: true });
    expect(dice.content).toContain("I can't read `2d6+`");
    expect(dice.content).toContain('For example: `4d6kh3+2`');

    const linked = await sandbox().one({ user: 'mike', command: 'roll linked', options: { rolls: 'Climbing vs 90; Driving vs hard' } });
    expect(linked.content).toContain('Linked roll, part 2 (`Driving vs hard`)');
    expect(linked.content).toContain('A part reads like `Handgun Handling +Acuity -10 vs 90`; parts are separated by `;`.');

    const code = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3X' } });
    expect(code.content).toContain('e.g. `3D+2`');
  });
});
