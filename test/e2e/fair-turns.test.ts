// Fair turns through the fake Discord and the real router (src/discord/turns.ts): a member's flood, or a server's,
// does not hold back someone else, and heavy work runs one at a time per member. The test command /hold starts,
// notes that it started, and holds its turn until the test lets every /hold go; orders are asserted, never times.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { Events, MessageFlags, REST, Routes, type ChatInputCommandInteraction, type Interaction } from 'discord.js';
import { defineCommand } from '../../src/discord/command.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import type { SandboxInteractionRequest, SandboxInteractionResult } from '../../src/sandbox/fake-discord.js';
import { freshDatabaseUrl } from '../helpers/database.js';

/** The labels of the /hold handlers, in the order they started. */
let started: string[] = [];
let letGo: () => void = () => {};
let holding: Promise<void> = Promise.resolve();

async function holdTurn(interaction: ChatInputCommandInteraction): Promise<void> {
  const label = interaction.options.getString('label', true);
  started.push(label);
  await holding;
  await interaction.reply({ content: `${label} let go`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
}

const holdCommand = defineCommand({
  name: 'hold',
  description: 'Test only: holds its turn until the test lets go',
  subcommands: [
    {
      name: 'light',
      build: (sub) => sub.setDescription('An ordinary handler').addStringOption((o) => o.setName('label').setDescription('Its name in the test').setRequired(true)),
      run: holdTurn,
      help: { audience: 'player', example: '/hold light label:a' },
    },
    {
      name: 'heavy',
      build: (sub) => sub.setDescription('Heavy work').addStringOption((o) => o.setName('label').setDescription('Its name in the test').setRequired(true)),
      run: holdTurn,
      heavy: true,
      help: { audience: 'player', example: '/hold heavy label:a' },
    },
  ],
});
const holdData = holdCommand.data;

let sandbox: Sandbox;
/** Interactions the bot has taken in (its router has seen them by then: it listens first), by label or command. */
let received: string[] = [];

beforeEach(async () => {
  started = [];
  received = [];
  holding = new Promise<void>((resolve) => (letGo = resolve));
  sandbox = await startSandbox({ port: 0, databaseUrl: freshDatabaseUrl(), migrate: false, log: pino({ level: 'silent' }), extraCommands: [holdCommand] });
  const rest = new REST({ api: sandbox.fake.restApi }).setToken(sandbox.fake.token);
  await rest.post(Routes.applicationGuildCommands(sandbox.fake.applicationId, sandbox.fake.guildId), { body: holdData.toJSON() });
  sandbox.bot.client.on(Events.InteractionCreate, (interaction: Interaction) => {
    if (interaction.isChatInputCommand()) received.push(interaction.options.getString('label') ?? `${interaction.user.username} /${interaction.commandName}`);
  });
});

afterEach(async () => {
  letGo();
  try {
    expect(sandbox.fake.violations).toEqual([]);
  } finally {
    await sandbox.stop();
  }
});

/** Sends an interaction without waiting for its answer; the answer's promise fails the test on a broken rule. */
function send(request: SandboxInteractionRequest): Promise<SandboxInteractionResult> {
  return sandbox.fake.interact(request).then((result) => {
    expect(result.errors, `Discord rules broken by ${JSON.stringify(request)}`).toEqual([]);
    expect(result.responses.length, `answers to ${JSON.stringify(request)}`).toBeGreaterThan(0);
    return result;
  });
}

const hold = (user: string, label: string, options: { heavy?: boolean; guild?: string } = {}): Promise<SandboxInteractionResult> =>
  send({ user, command: `hold ${options.heavy ? 'heavy' : 'light'}`, options: { label }, ...(options.guild ? { guild: options.guild } : {}) });

const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 10_000, interval: 5 });

describe('fair turns through the router', () => {
  it("with every turn held by one player and 20 more of theirs waiting, another player's command starts first once one is let go", async () => {
    const answers = Array.from({ length: 8 }, (_, i) => hold('anna', `anna running ${i}`));
    await until(() => started.length === 8);
    for (let i = 0; i < 20; i++) answers.push(hold('anna', `anna waiting ${i}`));
    answers.push(hold('ben', 'ben'));
    await until(() => received.includes('ben'));
    letGo();
    await Promise.all(answers);
    expect(started.slice(8)).toEqual(['ben', ...Array.from({ length: 20 }, (_, i) => `anna waiting ${i}`)]);
  });

  it("a server whose players flood does not hold back a player of another server", async () => {
    const answers = Array.from({ length: 8 }, (_, i) => hold(`player${i}`, `crowded ${i}`, { guild: 'Crowded' }));
    await until(() => started.length === 8);
    for (let i = 8; i < 28; i++) answers.push(hold(`player${i}`, `crowded ${i}`, { guild: 'Crowded' }));
    answers.push(hold('dora', 'quiet', { guild: 'Quiet' }));
    await until(() => received.includes('quiet'));
    letGo();
    await Promise.all(answers);
    expect(started.slice(8)).toEqual(['quiet', ...Array.from({ length: 20 }, (_, i) => `crowded ${i + 8}`)]);
  });

  it("a player's second heavy command waits for the first without holding a turn; another player's runs meanwhile", async () => {
    const answers = [hold('anna', 'anna import 1', { heavy: true })];
    await until(() => started.length === 1);
    answers.push(hold('anna', 'anna import 2', { heavy: true }), hold('ben', 'ben'));
    await until(() => started.includes('ben'));
    expect(started).toEqual(['anna import 1', 'ben']);
    letGo();
    await Promise.all(answers);
    expect(started).toEqual(['anna import 1', 'ben', 'anna import 2']);
  });

  it("the bot's own imports and exports count as heavy: a player's /sheet export waits behind their running heavy command, another player's does not", async () => {
    for (const user of ['anna', 'ben']) await send({ user, command: 'sheet create', options: { name: `${user}'s Operator` } });
    const annaHolds = hold('anna', 'anna import', { heavy: true });
    await until(() => started.length === 1);
    let annaAnswered = false;
    const annaExport = send({ user: 'anna', command: 'sheet export' }).then((result) => {
      annaAnswered = true;
      return result;
    });
    await until(() => received.includes('anna /sheet'));
    // Ben's export and two more of his commands, one after another, all answered while Anna's export still waits.
    const bensExport = await send({ user: 'ben', command: 'sheet export' });
    expect(bensExport.responses[0]!.attachments).toHaveLength(1);
    await send({ user: 'ben', command: 'sheet list' });
    await send({ user: 'ben', command: 'sheet show' });
    expect(annaAnswered).toBe(false);
    letGo();
    await annaHolds;
    const exported = await annaExport;
    expect(exported.responses.at(-1)!.attachments).toHaveLength(1);
  });
});
