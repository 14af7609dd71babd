import { describe, expect, it } from 'vitest';
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import { commands } from '../../commands/index.js';
import { HEAVY_COMMANDS } from '../../src/discord/heavy-work.js';

/** Every command path the bot serves: `roll dice`, `sheet skill set`, … */
function commandPaths(): string[] {
  const paths: string[] = [];
  const walk = (prefix: string, options: readonly APIApplicationCommandOption[] | undefined): void => {
    const nested = (options ?? []).filter((option) => option.type === ApplicationCommandOptionType.Subcommand || option.type === ApplicationCommandOptionType.SubcommandGroup);
    if (nested.length === 0) paths.push(prefix);
    for (const option of nested) walk(`${prefix} ${option.name}`, 'options' in option ? option.options : undefined);
  };
  for (const command of commands) {
    const data = command.data.toJSON();
    walk(data.name, data.options);
  }
  return paths;
}

describe('heavy work', () => {
  it('names only commands the bot serves, so a renamed one cannot silently stop counting as heavy', () => {
    const paths = commandPaths();
    for (const heavy of HEAVY_COMMANDS) expect(paths, heavy).toContain(heavy);
  });

  it('counts the imports, the exports and dice notation', () => {
    expect([...HEAVY_COMMANDS]).toEqual(expect.arrayContaining(['sheet import', 'sheet export', 'table import', 'table export', 'roll dice']));
  });
});
