// A test-only command whose handlers take as long as the test says, to drive the responder's deferral
// (src/discord/responder.ts) through every way a handler answers. Add it with startSandbox({ extraCommands:
// [slowCommand] }) and register it with registerSlowCommand (the sandbox registers only the real commands).
//
//   /slow reply ms:<wait> [private] [buttons]  waits, then replies (privately if asked; with the buttons below if asked)
//   /slow defer ms:<wait> [private]            waits, then defers itself (as some handlers do) and replies
//   /slow fail ms:<wait> [kind:user|bug]       waits, then throws a UserError or a bug
//   buttons  slow:<verb>:<ms>                  update | reply | private | modal | fail, after waiting <ms>;
//                                              slowform opens at once a form whose submit waits <ms>
//   modals   slow:form:<ms>                    slowform's: its submit waits, then updates the message it came from
//            slow:modalform:<ms>               modal's: its submit updates the message at once
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  ModalBuilder,
  REST,
  Routes,
  TextInputBuilder,
  TextInputStyle,
  type ChatInputCommandInteraction,
} from 'discord.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineCommand, type ComponentInteraction, type HandlerContext } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { BUTTON, componentIds, oneOf, wholeNumber } from '../../src/views/component-id.js';
import type { FakeDiscord } from '../../src/sandbox/fake-discord.js';

/** How many times each handler ran to its end, by what it did; tests check nothing ran twice. */
export const slowCalls: Record<string, number> = {};

function count(what: string): void {
  slowCalls[what] = (slowCalls[what] ?? 0) + 1;
}

const NO_PINGS = { parse: [] };

function buttons(ms: number) {
  const button = (verb: SlowPress['verb'], label: string) => new ButtonBuilder().setCustomId(slowIds.encode({ verb, ms })).setLabel(label).setStyle(ButtonStyle.Secondary);
  return [
    new ActionRowBuilder<ButtonBuilder>()
      .addComponents(button('update', 'Update'), button('reply', 'Reply'), button('private', 'Private'), button('modal', 'Form'), button('fail', 'Fail')),
    new ActionRowBuilder<ButtonBuilder>().addComponents(button('slowform', 'Slow form'))
      .toJSON(),
  ];
}

async function execute(interaction: ChatInputCommandInteraction, { answer }: HandlerContext): Promise<void> {
  const sub = interaction.options.getSubcommand(true);
  const ms = interaction.options.getInteger('ms') ?? 0;
  const ephemeral = interaction.options.getBoolean('private') ?? false;
  await sleep(ms);
  if (sub === 'reply') {
    const withButtons = interaction.options.getBoolean('buttons') ?? false;
    await answer.reply({
      content: `slow reply after ${ms} ms`,
      ...(withButtons ? { components: buttons(Number(interaction.options.getInteger('button_ms') ?? 0)) } : {}),
      ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
      allowedMentions: NO_PINGS,
    });
    count(ephemeral ? 'reply private' : 'reply');
    return;
  }
  if (sub === 'defer') {
    await answer.defer({ private: ephemeral });
    await answer.reply({ content: `deferred by the handler after ${ms} ms`, allowedMentions: NO_PINGS });
    count(ephemeral ? 'defer private' : 'defer');
    return;
  }
  count(`fail ${interaction.options.getString('kind') ?? 'user'}`);
  if (interaction.options.getString('kind') === 'bug') throw new Error('a slow bug');
  throw new UserError(`slow refusal after ${ms} ms`);
}

const VERBS = ['update', 'reply', 'private', 'modal', 'slowform', 'fail', 'form', 'modalform'] as const;
interface SlowPress {
  verb: (typeof VERBS)[number];
  ms: number;
}
const slowIds = componentIds<SlowPress>('slow', {
  write: ({ verb, ms }) => [verb, ms],
  read: ([verbText, msText]) => {
    const verb = oneOf(verbText, VERBS);
    const ms = wholeNumber(msText);
    return verb && ms !== null ? { verb, ms } : null;
  },
  // Each form comes from the message whose button opened it.
  origin: ({ verb, ms }) => (verb === 'form' ? { formOpenedBy: [{ verb: 'slowform', ms }] } : verb === 'modalform' ? { formOpenedBy: [{ verb: 'modal', ms }] } : BUTTON),
});

async function component(interaction: ComponentInteraction, { verb, ms }: SlowPress, { answer }: HandlerContext): Promise<void> {
  if (verb !== 'slowform' && verb !== 'modalform') await sleep(ms);
  count(`button ${verb}`);
  switch (verb) {
    case 'update':
    case 'form':
    case 'modalform':
      if (!interaction.isMessageComponent() && !(interaction.isModalSubmit() && interaction.isFromMessage())) throw new Error('no message to update');
      await answer.update({ content: `updated by ${verb} after ${ms} ms`, components: [], allowedMentions: NO_PINGS });
      return;
    case 'reply':
      await answer.reply({ content: `button reply after ${ms} ms`, allowedMentions: NO_PINGS });
      return;
    case 'private':
      await answer.reply({ content: `private button reply after ${ms} ms`, flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS });
      return;
    case 'modal':
    case 'slowform': {
      if (interaction.isModalSubmit()) throw new UserError('A form cannot open another form.');
      const modal = new ModalBuilder()
        .setCustomId(slowIds.encode({ verb: verb === 'slowform' ? 'form' : 'modalform', ms }))
        .setTitle('Slow form')
        .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(new TextInputBuilder().setCustomId('text').setLabel('Anything').setStyle(TextInputStyle.Short).setRequired(false)));
      await answer.showModal(modal);
      return;
    }
    case 'fail':
      throw new UserError(`slow button refusal after ${ms} ms`);
  }
  throw new UserError('not a slow button');
}

const testHelp = (example: string) => ({ audience: 'player' as const, example });

export const slowCommand = defineCommand<SlowPress>({
  name: 'slow',
  description: 'Test only: answers after a wait',
  subcommands: [
    {
      name: 'reply',
      build: (sub) =>
        sub
          .setDescription('Waits, then replies')
          .addIntegerOption((o) => o.setName('ms').setDescription('Wait before replying').setRequired(true).setMinValue(0))
          .addBooleanOption((o) => o.setName('private').setDescription('Reply privately'))
          .addBooleanOption((o) => o.setName('buttons').setDescription('Add the slow buttons'))
          .addIntegerOption((o) => o.setName('button_ms').setDescription('How long the buttons wait').setMinValue(0)),
      run: execute,
      help: testHelp('/slow reply ms:0'),
    },
    {
      name: 'defer',
      build: (sub) =>
        sub
          .setDescription('Waits, then defers and edits its reply')
          .addIntegerOption((o) => o.setName('ms').setDescription('Wait before deferring').setRequired(true).setMinValue(0))
          .addBooleanOption((o) => o.setName('private').setDescription('Defer privately')),
      run: execute,
      help: testHelp('/slow defer ms:0'),
    },
    {
      name: 'fail',
      build: (sub) =>
        sub
          .setDescription('Waits, then fails')
          .addIntegerOption((o) => o.setName('ms').setDescription('Wait before failing').setRequired(true).setMinValue(0))
          .addStringOption((o) => o.setName('kind').setDescription('A UserError or a bug').addChoices({ name: 'user', value: 'user' }, { name: 'bug', value: 'bug' })),
      run: execute,
      help: testHelp('/slow fail ms:0'),
    },
  ],
  ids: slowIds,
  component,
});

/** Registers /slow in the fake's server next to the real commands. */
export async function registerSlowCommand(fake: FakeDiscord): Promise<void> {
  const rest = new REST({ api: fake.restApi }).setToken(fake.token);
  await rest.post(Routes.applicationGuildCommands(fake.applicationId, fake.guildId), { body: slowCommand.data.toJSON() });
}
