/**
 * The floor every figure is compared with: a bare discord.js Client that answers /roll challenge with one reply
 * of the same shape as ours (an embed with a title, the dice and the sum, a footer), a D100 from Math.random, no
 * database. Used in-process by the latency figures and, run as a script, as a process of its own for the
 * cold-start figure (`node --import tsx bench/bare-bot.ts` with DISCORD_TOKEN and DISCORD_API).
 */
import { pathToFileURL } from 'node:url';
import { Client, EmbedBuilder, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import { loginAndWaitUntilReady } from '../src/discord/client.js';

/** What the bare bot prints once it answers, so a parent process knows it is up. */
export const BARE_READY_LINE = 'bare bot ready';

export function createBareBot(restApi: string, onProblem: (problem: string) => void): Client {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: restApi } });
  client.on(Events.InteractionCreate, (interaction) => {
    answerLikeABareBot(interaction).catch((error: unknown) => onProblem(`bare bot: ${String(error)}`));
  });
  return client;
}

async function answerLikeABareBot(interaction: Interaction): Promise<void> {
  if (!interaction.isChatInputCommand() || interaction.commandName !== 'roll') return;
  if (interaction.options.getSubcommand() !== 'challenge') return;
  const skill = interaction.options.getString('skill', true);
  const cl = interaction.options.getInteger('cl', true);
  const archetype = interaction.options.getString('archetypes') ?? 'Acuity';
  const level = interaction.options.getInteger('level') ?? 40; // what our bot reads from the sheets
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const token = process.env.DISCORD_TOKEN;
  const restApi = process.env.DISCORD_API;
  if (!token || !restApi) {
    console.error('bench/bare-bot.ts needs DISCORD_TOKEN and DISCORD_API (a fake Discord, see bench/cold-start.ts)');
    process.exit(1);
  }
  const client = createBareBot(restApi, (problem) => console.error(problem));
  await loginAndWaitUntilReady(client, token);
  console.log(JSON.stringify({ level: 30, msg: BARE_READY_LINE }));
  process.on('SIGTERM', () => void client.destroy().then(() => process.exit(0)));
}
