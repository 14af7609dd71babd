// Every subcommand that declares a requirement (`requires` in its declaration, src/discord/command.ts) refuses a
// member who lacks it, privately, with the refusal its action names, before its handler runs: nothing is created,
// changed or posted. Found from the declarations, so a subcommand declared later is covered with no edit here.
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import type { Requirement } from '../../src/discord/command.js';
import { npcOwner } from '../../src/store/operators.js';
import { useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

/** A value Discord's client would accept for a required option: the first choice, the least number, a file. */
function valueFor(option: APIApplicationCommandOption): unknown {
  if ('choices' in option && option.choices?.length) return option.choices[0]!.value;
  switch (option.type) {
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number:
      return option.min_value ?? 1;
    case ApplicationCommandOptionType.Boolean:
      return false;
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Mentionable:
      return 'sasha';
    case ApplicationCommandOptionType.Role:
      return 'Dispatcher';
    case ApplicationCommandOptionType.Attachment:
      return { filename: 'file.json', content: '{}' };
    default:
      return 'Thug';
  }
}

/** The options a subcommand's definition lists, found by its path (`import`, `skill set`). */
function optionsOf(commandName: string, path: string): APIApplicationCommandOption[] {
  const command = commands.find((candidate) => candidate.data.name === commandName)!;
  let options = (command.data.toJSON().options ?? []) as APIApplicationCommandOption[];
  for (const part of path.split(' ').filter(Boolean)) {
    const found = options.find((option) => option.name === part);
    options = (found && 'options' in found ? found.options : []) as APIApplicationCommandOption[];
  }
  return options;
}

const declared = commands.flatMap((command) =>
  command.subcommands.flatMap((sub) => (sub.requires ? [{ path: `${command.data.name} ${sub.path}`.trim(), name: command.data.name, sub: sub.path, requires: sub.requires }] : [])),
);

function refusalStart(requires: Requirement): string {
  return 'dispatcher' in requires ? `⚠️ Only a Dispatcher can ${requires.dispatcher}.` : `⚠️ Only members with the Manage Server permission can ${requires.manageServer}.`;
}

describe('declared requirements', () => {
  it('are declared by the Dispatcher and server-admin subcommands', () => {
    const paths = declared.map((entry) => entry.path);
    for (const path of ['npc create', 'npc skill set', 'dispatch challenge', 'table import', 'table delete', 'initiative start', 'initiative set', 'code scene-end', 'config systems']) {
      expect(paths).toContain(path);
    }
  });

  it('refuse a plain player before the handler runs, privately, in the words of the action, and nothing is posted or stored', async () => {
    for (const { path, name, sub, requires } of declared) {
      const options = Object.fromEntries(optionsOf(name, sub).filter((option) => 'required' in option && option.required).map((option) => [option.name, valueFor(option)]));
      const result = await sandbox().act({ user: 'mike', command: path, options });
      expect(result.responses, path).toHaveLength(1);
      const refusal = result.responses[0]!;
      expect(refusal, path).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: { parse: [] } });
      expect(refusal.content, path).toContain(refusalStart(requires));
      if ('dispatcher' in requires && requires.advice) expect(refusal.content, path).toContain(requires.advice);
    }
    // Nothing reached a handler: no NPC, no table, no initiative, no roll.
    const { store } = sandbox().bot;
    const guildId = sandbox().fake.guildId;
    expect(await store.operators.list(npcOwner(guildId))).toEqual([]);
    expect(await store.tables.list(guildId)).toEqual([]);
    expect((await store.rolls.page(guildId, { limit: 10 })).rolls).toEqual([]);
    // Every answer was private: the channel shows nothing.
    expect(sandbox().fake.messages()).toEqual([]);
  });
});
