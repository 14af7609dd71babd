// The first steps /help and the welcome suggest, typed as shown through the real bot and the fake Discord: each
// system's steps make a character, put something on its sheet and roll it by name; and a die-code sheet shows its
// abilities as the die codes they were given.
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands } from '../../commands/index.js';
import { SYSTEM_IDS } from '../../src/engine/systems/index.js';
import { firstSteps } from '../../src/views/help.js';
import { SYSTEM_VIEWS } from '../../src/views/systems.js';
import { startTestSandbox, stopChecked, textOf, useTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

/** Every runnable command path ("code ability") with its options' definitions. */
function runnable(): Map<string, APIApplicationCommandOption[]> {
  const paths = new Map<string, APIApplicationCommandOption[]>();
  for (const command of commands) {
    const json = command.data.toJSON();
    const options = json.options ?? [];
    const branches = options.filter((option) => option.type === ApplicationCommandOptionType.Subcommand || option.type === ApplicationCommandOptionType.SubcommandGroup);
    if (branches.length === 0) paths.set(json.name, options);
    for (const option of branches) {
      if (option.type === ApplicationCommandOptionType.Subcommand) paths.set(`${json.name} ${option.name}`, option.options ?? []);
      if (option.type === ApplicationCommandOptionType.SubcommandGroup) for (const sub of option.options ?? []) paths.set(`${json.name} ${option.name} ${sub.name}`, sub.options ?? []);
    }
  }
  return paths;
}

/** A command as a player types it (`/code ability name:Blaster code:3D+2`), as the fake Discord sends it. */
function typed(text: string): { command: string; options: Record<string, string | number | boolean> } {
  const paths = runnable();
  const words = text.replace(/^\//, '').split(/\s+/);
  const path = [3, 2, 1].map((count) => words.slice(0, count).join(' ')).find((candidate) => paths.has(candidate));
  expect(path, `${text}: no such command`).toBeDefined();
  const definitions = paths.get(path!)!;
  const rest = text.slice(path!.length + 1);
  const pattern = new RegExp(`(?:^|\\s)(${definitions.map((option) => option.name).join('|') || '(?!)'}):`, 'g');
  const found = [...rest.matchAll(pattern)];
  const options: Record<string, string | number | boolean> = {};
  found.forEach((match, index) => {
    const value = rest.slice(match.index! + match[0].length, found[index + 1]?.index ?? rest.length).trim();
    const type = definitions.find((option) => option.name === match[1])!.type;
    options[match[1]!] =
      type === ApplicationCommandOptionType.Integer || type === ApplicationCommandOptionType.Number ? Number(value) : type === ApplicationCommandOptionType.Boolean ? value === 'true' : value;
  });
  return { command: path!, options };
}


describe('the first steps of each system, typed as suggested', () => {
  for (const system of SYSTEM_IDS) {
    it(`${system}: /help shows them on a server that plays it, and each one works, the roll reading the sheet`, async () => {
      const s = sandbox();
      await s.bot.store.servers.update(s.fake.guildId, { playedSystems: JSON.stringify([system]), defaultSystem: system });
      const steps = firstSteps(SYSTEM_VIEWS.start(system));
      const overview = textOf(await s.one({ user: 'mike', command: 'help' }));
      for (const step of steps.sheet) expect(overview).toContain(`${step.what}: \`${step.command}\``);
      expect(overview).toContain(`Roll: \`${steps.roll}\``);

      for (const step of steps.sheet) {
        const answer = await s.one({ user: 'mike', ...typed(step.command) });
        expect(answer.content ?? '', step.command).not.toContain('⚠️');
      }
      const roll = await s.one({ user: 'mike', ...typed(steps.roll) });
      expect(roll, steps.roll).toMatchObject({ ephemeral: false });
      const rollId = /Roll (\w{8})/.exec(textOf(roll))?.[1];
      expect(rollId, `${steps.roll}: ${textOf(roll)}`).toBeDefined();
      expect(await s.bot.store.rolls.find(s.fake.guildId, rollId!), steps.roll).not.toBeNull();
    });
  }

  it('die codes: the first steps give an ability and roll it by name, not a die code typed anew', () => {
    const steps = SYSTEM_VIEWS.start('result-points');
    expect(steps.sheet.map((step) => step.command)).toEqual(['/code ability name:Blaster code:3D+2']);
    expect(steps.roll).toBe('/code roll code:Blaster difficulty:moderate');
  });

  it('d10 pools: the first steps put a skill on the sheet and roll it by name', () => {
    const steps = SYSTEM_VIEWS.start('d10-pool');
    expect(steps.sheet.map((step) => step.command)).toEqual(['/sheet skill set name:Firearms level:4']);
    expect(steps.roll).toBe('/d10 roll dice:Firearms tn:7');
  });
});

describe('the welcome on a server whose default system is die codes or d10 pools', () => {
  let welcomed: TestSandbox | undefined;
  afterEach(async () => {
    const current = welcomed;
    welcomed = undefined;
    await stopChecked(current);
  });

  for (const [system, sheetStep, roll] of [
    ['result-points', '`/code ability name:Blaster code:3D+2`', '`/code roll code:Blaster difficulty:moderate`'],
    ['d10-pool', '`/sheet skill set name:Firearms level:4`', '`/d10 roll dice:Firearms tn:7`'],
  ] as const) {
    it(`${system}: says to put it on the sheet, then to roll it by name`, async () => {
      welcomed = await startTestSandbox({ welcome: true });
      await welcomed.bot.store.servers.update(welcomed.fake.guildId, { playedSystems: JSON.stringify([system]), defaultSystem: system });
      await welcomed.act({ user: 'mike', command: 'roll dice', options: { expression: '2d6' } });
      const s = welcomed;
      await vi.waitFor(() => expect(s.fake.messages(s.fake.channelId).some((message) => (message.content ?? '').includes('Tac Talk Bot is here.'))).toBe(true), { timeout: 5000 });
      const welcome = s.fake.messages(s.fake.channelId).find((message) => (message.content ?? '').includes('Tac Talk Bot is here.'))!.content!;
      expect(welcome).toContain(`Make your character with \`/sheet create name:Troy\`, `);
      expect(welcome).toContain(sheetStep);
      expect(welcome).toContain(`then roll: ${roll}`);
    });
  }
});

describe('/sheet show of a die-code sheet', () => {
  it('shows each ability as the die code it was given, its fixed value beside it; tracks and action points as numbers', async () => {
    const s = sandbox();
    await s.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy', system: 'result-points' } });
    await s.one({ user: 'mike', command: 'code ability', options: { name: 'Blaster', code: '3D+2' } });
    await s.one({ user: 'mike', command: 'code ability', options: { name: 'Dodge', code: '4D' } });
    await s.one({ user: 'mike', command: 'code track', options: { name: 'Wounds', points: 3 } });
    const shown = textOf(await s.one({ user: 'mike', command: 'sheet show' }));
    expect(shown).toContain('Blaster **3D+2** (11)');
    expect(shown).toContain('Dodge **4D** (12)');
    expect(shown).not.toContain('Blaster **11**');
    expect(shown).toContain('Wounds track **3**');
    // A die-code sheet holds no archetypes: it shows no field for them.
    expect(shown).not.toContain('Archetype modifiers');
    // The same ranks as /code status shows them.
    const status = textOf(await s.one({ user: 'mike', command: 'code status' }));
    expect(status).toContain('3D+2');
    expect(status).toContain('4D');
  });

  it('a sheet of another system still shows its numbers as they are', async () => {
    const s = sandbox();
    await s.one({ user: 'mike', command: 'sheet create', options: { name: 'Vex', system: 'd10-pool' } });
    await s.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Firearms', level: 4 } });
    expect(textOf(await s.one({ user: 'mike', command: 'sheet show' }))).toContain('Firearms **4**');
  });

  it("a Tac Talk sheet shows its archetype modifiers' field, empty or not", async () => {
    const s = sandbox();
    await s.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy', system: 'tactalk' } });
    expect(textOf(await s.one({ user: 'mike', command: 'sheet show' }))).toContain('Archetype modifiers (0)');
  });
});
