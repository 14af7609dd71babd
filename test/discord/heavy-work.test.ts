import { describe, expect, it } from 'vitest';
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import { commands } from '../../commands/index.js';

/** Every subcommand path of a command: `import`, `skill set`, … */
function subcommandPaths(options: readonly APIApplicationCommandOption[] | undefined, prefix = ''): string[] {
  const nested = (options ?? []).filter((option) => option.type === ApplicationCommandOptionType.Subcommand || option.type === ApplicationCommandOptionType.SubcommandGroup);
  if (nested.length === 0) return prefix ? [prefix] : [];
  return nested.flatMap((option) => subcommandPaths('options' in option ? option.options : undefined, prefix ? `${prefix} ${option.name}` : option.name));
}

/** Every heavy command path the bot declares: `sheet import`, … */
const heavy = commands.flatMap((command) => command.subcommands.filter((sub) => sub.heavy).map((sub) => `${command.data.name} ${sub.path}`));

describe('heavy work', () => {
  it('is declared by subcommands the bot serves, so a renamed one cannot silently stop counting as heavy', () => {
    for (const command of commands) {
      const paths = subcommandPaths(command.data.toJSON().options);
      // Each declared subcommand is one the definition has, and the other way round.
      expect(command.subcommands.map((sub) => sub.path).sort(), command.data.name).toEqual(paths.length > 0 ? [...paths].sort() : ['']);
    }
  });

  it('counts the imports, the exports and dice notation', () => {
    expect(heavy).toEqual(expect.arrayContaining(['sheet import', 'sheet export', 'table import', 'table export', 'roll dice']));
  });
});
