// A subcommand is one declaration: a toy command declared in test fixtures only (test/fixtures/toy-command.ts) is
// registered in the slash list (cut to its `everywhere` part where its system is not played), run by the router
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
  it('is in the slash list whole where its system is played, cut to its everywhere subcommand where not', async () => {
    await until(() => offered().some((definition) => definition.name === 'toy'), 'the toy command registered');
    const toy = offered().find((definition) => definition.name === 'toy')!;
    expect(toy.options?.map((option) => [option.name, option.type])).toEqual([
      ['spin', ApplicationCommandOptionType.Subcommand],
      ['peek', ApplicationCommandOptionType.Subcommand],
      ['wheel', ApplicationCommandOptionType.SubcommandGroup],
    ]);

    await sandbox().one({ user: 'olga', permissions: ['ManageGuild'], command: 'config systems', options: { play: 'Tac Talk' } });
    await until(() => offered().find((definition) => definition.name === 'toy')?.options?.length === 1, 'the toy command cut down');
    const cut = offered().find((definition) => definition.name === 'toy')!;
    expect(cut.description).toBe('Test only: look at the wheel');
    expect(cut.options?.map((option) => option.name)).toEqual(['peek']);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'toy peek' }))).toBe('The wheel has six spokes.');
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
