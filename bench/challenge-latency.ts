/**
 * /roll challenge, command → reply, for our bot and for a bare discord.js bot, each against its own FakeDiscord
 * in this process. The figure is the fake's firstResponseMs: from dispatching INTERACTION_CREATE to receiving
 * the bot's interaction callback.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { Client, EmbedBuilder, Events, GatewayIntentBits, REST, RESTEvents, type Interaction } from 'discord.js';
import { loginAndWaitUntilReady } from '../src/discord/client.js';
import { registerCommands } from '../src/discord/deploy.js';
import { FakeDiscord, type SandboxInteractionRequest } from '../src/sandbox/fake-discord.js';
import { startSandbox } from '../src/sandbox/sandbox.js';

export const ROLL: SandboxInteractionRequest = {
  user: 'mike',
  command: 'roll challenge',
  options: { skill: 'Climbing', cl: 90, archetypes: 'Acuity' },
};

/** A bot under test: its fake Discord, and what went wrong (interactions without a callback, rate limits). */
export interface Target {
  name: string;
  fake: FakeDiscord;
  /** Interactions that broke a rule, had no callback or failed: left out of the figures. */
  problems: string[];
  /** Times @discordjs/rest delayed a request for a rate limit (the global 50/s does not apply to callbacks). */
  rateLimited: number;
  stop(): Promise<void>;
}

/** Our bot: startSandbox on a migrated temporary SQLite file, with mike's sheet Troy (Climbing 40, Acuity 10). */
export async function startOurs(settleMs: number): Promise<Target> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tactalk-bench-'));
  const databaseUrl = `file:${path.join(folder, 'bench.db')}`;
  const removeFolder = (): void => fs.rmSync(folder, { recursive: true, force: true });
  let sandbox;
  try {
    sandbox = await startSandbox({ port: 0, databaseUrl, log: pino({ level: 'silent' }), migrate: true, settleMs });
  } catch (error) {
    removeFolder();
    throw error;
  }
  const target: Target = {
    name: 'Tac Talk bot',
    fake: sandbox.fake,
    problems: [],
    rateLimited: 0,
    async stop() {
      await sandbox.stop();
      removeFolder();
    },
  };
  sandbox.bot.client.rest.on(RESTEvents.RateLimited, () => target.rateLimited++);
  try {
    const setup: SandboxInteractionRequest[] = [
      { user: 'mike', command: 'sheet create', options: { name: 'Troy' } },
      { user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } },
      { user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } },
    ];
    for (const request of setup) {
      const result = await sandbox.fake.interact(request);
      if (result.errors.length > 0 || result.responses.length === 0) {
        throw new Error(`setup /${request.command} failed: ${JSON.stringify(result)}`);
      }
    }
  } catch (error) {
    await target.stop();
    throw error;
  }
  return target;
}

/**
 * The baseline: a bare discord.js Client that answers /roll challenge with one reply of the same shape (an embed
 * with a title, the dice and the sum, a footer), a D100 from Math.random, and no database.
 */
export async function startBare(settleMs: number): Promise<Target> {
  const fake = new FakeDiscord({ settleMs });
  await fake.start();
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.restApi } });
  const target: Target = {
    name: 'bare discord.js',
    fake,
    problems: [],
    rateLimited: 0,
    async stop() {
      await client.destroy();
      await fake.stop();
    },
  };
  client.rest.on(RESTEvents.RateLimited, () => target.rateLimited++);
  client.on(Events.InteractionCreate, (interaction) => {
    answerLikeABareBot(interaction).catch((error: unknown) => target.problems.push(`bare bot: ${String(error)}`));
  });
  try {
    await loginAndWaitUntilReady(client, fake.token);
    await registerCommands(new REST({ api: fake.restApi }).setToken(fake.token), fake.applicationId, fake.guildId);
  } catch (error) {
    await target.stop();
    throw error;
  }
  return target;
}

async function answerLikeABareBot(interaction: Interaction): Promise<void> {
  if (!interaction.isChatInputCommand() || interaction.commandName !== 'roll') return;
  if (interaction.options.getSubcommand() !== 'challenge') return;
  const skill = interaction.options.getString('skill', true);
  const cl = interaction.options.getInteger('cl', true);
  const archetype = interaction.options.getString('archetypes') ?? 'Acuity';
  const level = 40; // what our bot reads from mike's sheet
  const modifier = 10;
  const tens = Math.floor(Math.random() * 10);
  const ones = Math.floor(Math.random() * 10);
  const d100 = tens * 10 + ones || 100;
  const sum = d100 + level + modifier;
  const success = sum >= cl;
  const chance = Math.max(0, Math.min(100, 101 - Math.max(1, cl - level - modifier)));
  const rollId = Math.random().toString(36).slice(2, 10);
  const embed = new EmbedBuilder()
    .setColor(success ? 0x2e9e5b : 0xc0392b)
    .setTitle(`${success ? '✅' : '❌'} ${skill} vs CL ${cl}: ${success ? 'success' : 'failure'}`)
    .setDescription(
      [
        `**${interaction.user.displayName}**`,
        `🎲 \`[${tens}][${ones}] → ${d100}\``,
        `${d100} (D100) + ${level} ${skill} + ${modifier} ${archetype} = **${sum}**`,
        `**${sum} ${success ? '≥' : '<'} ${cl}: ${success ? 'success' : 'failure'}** (margin ${sum - cl})`,
        `Chance of success: ${chance}%`,
      ].join('\n'),
    )
    .setFooter({ text: `Roll ${rollId} · check it with /roll replay id:${rollId}` });
  await interaction.reply({ embeds: [embed.toJSON()], allowedMentions: { parse: [] } });
}

/** `count` sequential /roll challenge; returns each one's firstResponseMs. */
export async function sequential(target: Target, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    try {
      const result = await target.fake.interact(ROLL);
      if (result.errors.length > 0) target.problems.push(result.errors.join('; '));
      else if (result.firstResponseMs === undefined) target.problems.push(`no callback: ${JSON.stringify(result.responses)}`);
      else times.push(result.firstResponseMs);
    } catch (error) {
      target.problems.push(String(error));
    }
  }
  return times;
}

/**
 * `count` /roll challenge dispatched at once: ms from the first dispatch until the fake has received the last
 * callback (each one's dispatch time + its firstResponseMs).
 */
export async function burst(target: Target, count: number): Promise<number> {
  const started = performance.now();
  const sent: number[] = [];
  const pending = [];
  for (let i = 0; i < count; i++) {
    sent.push(performance.now());
    pending.push(target.fake.interact(ROLL));
  }
  const settled = await Promise.allSettled(pending);
  let last = started;
  settled.forEach((outcome, i) => {
    if (outcome.status === 'rejected') target.problems.push(`burst: ${String(outcome.reason)}`);
    else if (outcome.value.firstResponseMs === undefined || outcome.value.errors.length > 0) {
      target.problems.push(`burst: ${outcome.value.errors.join('; ') || 'no callback'}`);
    } else last = Math.max(last, sent[i]! + outcome.value.firstResponseMs);
  });
  return last - started;
}
