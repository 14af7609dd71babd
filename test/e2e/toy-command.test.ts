// A subcommand is one declaration: a toy command declared in test fixtures only (test/fixtures/toy-command.ts) is
// registered in the global command list, run by the router (only its `everywhere` part where its system is not played)
// with its declared requirement checked first, counted as heavy work, listed and explained by /help, and written
// into the command reference, with no edit anywhere else.
import { ApplicationCommandOptionType, type ChatInputCommandInteraction, type RESTPostAPIChatInputApplicationCommandsJSONBody as Definition } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { renderCommandReference } from '../../src/discord/command-reference.js';
import { isHeavyWork } from '../../src/discord/heavy-work.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';
import { toyCommand, toyRuns } from '../fixtures/toy-command.js';

const sandbox = useTestSandbox({ extraCommands: [toyCommand] });
const offered = () => sandbox().fake.commands() as Definition[];

/** A slash command as the router reads its path: only the parts isHeavyWork looks at. */
function invoked(group: string | null, subcommand: string): ChatInputCommandInteraction {
  return { isChatInputCommand: () => true, options: { getSubcommandGroup: () => group, getSubcommand: () => subcommand } } as unknown as ChatInputCommandInteraction;
}

describe('a toy command declared in a fixture only', () => {
  it('is in the global list whole; where its system is not played only its everywhere subcommand runs', async () => {
    await until(() => offered().some((definition) => definition.name === 'toy'), 'the toy command registered');
    const toy = offered().find((definition) => definition.name === 'toy')!;
    expect(toy.options?.map((option) => [option.name, option.type])).toEqual([
      ['spin', ApplicationCommandOptionType.Subcommand],
      ['peek', ApplicationCommandOptionType.Subcommand],
      ['wheel', ApplicationCommandOptionType.SubcommandGroup],
    ]);

    await sandbox().one({ user: 'olga', permissions: ['ManageGuild'], command: 'config systems', options: { play: 'Tac Talk' } });
    // The list is the same for every server: still whole.
    expect(offered().find((definition) => definition.name === 'toy')).toEqual(toy);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'toy peek' }))).toBe('The wheel has six spokes.');
    const spin = await sandbox().one({ user: 'mike', command: 'toy spin', options: { force: 3 } });
    expect(spin).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(spin.content).toContain('`/toy spin` is for d6 pools with pushing, which this server does not play');
    // /help describes it as the part that runs here.
    expect(textOf(await sandbox().one({ user: 'mike', command: 'help' }))).toContain('**/toy** peek (Test only)');
  });

  it('runs each subcommand by its path, and checks the declared requirement before the handler runs', async () => {
    const before = { ...toyRuns };
    expect(textOf(await sandbox().one({ user: 'mike', command: 'toy spin', options: { force: 3 } }))).toBe('The wheel spins 3 times.');

    const refused = await sandbox().one({ user: 'mike', command: 'toy wheel set', options: { spokes: 8 } });
    expect(refused).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(refused.content).toMatch(/^⚠️ Only a Dispatcher can set up the wheel\. .* Anyone may spin it\.$/);
    expect(toyRuns.wheelSet).toBe(before.wheelSet);

    expect(textOf(await sandbox().one({ user: 'olga', permissions: ['ManageGuild'], command: 'toy wheel set', options: { spokes: 8 } }))).toBe('The wheel has 8 spokes now.');
    expect(toyRuns).toEqual({ spin: before.spin + 1, wheelSet: before.wheelSet + 1 });
  });

  it('is heavy work where it says so, and only there', () => {
    expect(isHeavyWork(invoked(null, 'spin'), toyCommand)).toBe(true);
    expect(isHeavyWork(invoked(null, 'peek'), toyCommand)).toBe(false);
    expect(isHeavyWork(invoked('wheel', 'set'), toyCommand)).toBe(false);
  });

  it('/help lists it for players and Dispatchers and explains a grouped subcommand with its example', async () => {
    const overview = textOf(await sandbox().one({ user: 'mike', command: 'help' }));
    expect(overview).toContain('**/toy** spin · peek');
    expect(overview).toContain('**/toy** wheel (Test only)');

    const topic = textOf(await sandbox().one({ user: 'mike', command: 'help', options: { command: 'toy wheel set' } }));
    expect(topic).toContain('/toy wheel set');
    expect(topic).toContain('Set the number of spokes');
    expect(topic).toContain('`/toy wheel set spokes:8`');
    expect(topic).toContain('Dispatchers (game masters)');
  });

  it('is written into the command reference (npm run docs:commands)', () => {
    const reference = renderCommandReference([...commands, toyCommand].map((command) => command.data.toJSON()));
    expect(reference).toContain('#### `/toy wheel set`');
    expect(reference).toContain('Set the number of spokes');
    expect(renderCommandReference(commands.map((command) => command.data.toJSON()))).not.toContain('/toy');
  });
});
