/**
 * docs/commands.md cannot drift from the commands the bot registers: its reference part is what
 * `npm run docs:commands` writes from the definitions, and every command written in the docs' prose as a code span
 * (`/sheet skill set name level`, `/roll challenge skill:Climbing cl:90`) names a real command, subcommand and options.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ApplicationCommandOptionType, PermissionFlagsBits, PermissionsBitField } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commands, contextMenus } from '../../commands/index.js';
import {
  COMMANDS_DOC,
  generatedPart,
  REFERENCE_COMMAND,
  REFERENCE_END,
  REFERENCE_START,
  renderCommandReference,
  withReference,
} from '../../src/discord/command-reference.js';

const ROOT = new URL('../../', import.meta.url);
const definitions = commands.map((command) => command.data.toJSON());

interface Option {
  type: ApplicationCommandOptionType;
  name: string;
  options?: Option[];
}

/** The docs a user reads: README.md and docs/*.md. */
function docs(): Array<{ file: string; text: string }> {
  const files = ['README.md', ...readdirSync(new URL('docs/', ROOT)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  return files.map((file) => ({ file, text: readFileSync(new URL(file, ROOT), 'utf8') }));
}

/** Markdown without its fenced blocks (examples in other languages) and without the generated reference. */
function prose(text: string): string {
  const start = text.indexOf(REFERENCE_START);
  const end = text.indexOf(REFERENCE_END);
  const withoutReference = start >= 0 && end > start ? text.slice(0, start) + text.slice(end) : text;
  return withoutReference.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
}

/**
 * What is wrong with a command written as a code span: `/name [group] sub word [word] word:value …`. The words
 * after the subcommand are option names (bracketed when optional; `a|b` for either); `…` and values are skipped.
 * Returns null for a span that does not start with a registered command (a path such as `/api/rolls`).
 */
function problemsOf(span: string): string[] | null {
  // A word is `name:"a quoted value"` or anything up to the next space.
  const words = span.replace(/\\\|/g, '|').trim().match(/\[?[\w-]+:"[^"]*"\]?|\S+/g) ?? [];
  const name = words.shift()!.slice(1);
  const definition = definitions.find((command) => command.name === name);
  if (!definition) return /^\/[a-z][a-z0-9-]*$/.test(`/${name}`) && !span.includes('/api') && words.length > 0 ? [`/${name} is not a command`] : null;
  let options = (definition.options ?? []) as Option[];
  let path = `/${name}`;
  const isBranch = (option: Option) => option.type === ApplicationCommandOptionType.Subcommand || option.type === ApplicationCommandOptionType.SubcommandGroup;
  while (options.some(isBranch)) {
    const word = words.shift();
    if (word === undefined || word === '…') return [];
    // `set|remove`: each alternative must be a subcommand here; the check goes on with no options known.
    const alternatives = word.split('|');
    const found = alternatives.map((alternative) => options.find((option) => isBranch(option) && option.name === alternative));
    const missing = alternatives.filter((_, index) => !found[index]);
    if (missing.length > 0) return [`${path} has no subcommand ${missing.join(', ')} (it has ${options.map((option) => option.name).join(', ')})`];
    if (alternatives.length > 1) return [];
    path += ` ${word}`;
    options = found[0]!.options ?? [];
  }
  const problems: string[] = [];
  const choices = (option: Option) => ((option as { choices?: Array<{ name: string; value: string | number }> }).choices ?? []).map((choice) => String(choice.value));
  // As in Discord's message box, a value runs on up to the next `name:` (`system:d6 pools with pushing`).
  let inValue = false;
  for (const word of words) {
    if (word === '…' || word === '·') continue;
    if (inValue && !word.includes(':') && !word.startsWith('[')) continue;
    inValue = word.includes(':');
    const bare = word.replace(/^\[/, '').replace(/\]$/, '');
    // `name:value` names an option and gives its value; a word alone is an option's name, or a choice's value.
    const optionNames = bare.includes(':') ? [bare.slice(0, bare.indexOf(':'))] : bare.split('|');
    for (const optionName of optionNames) {
      if (!/^[\w-]+$/.test(optionName)) continue;
      if (options.some((option) => option.name === optionName)) continue;
      if (!bare.includes(':') && options.some((option) => choices(option).includes(optionName))) continue;
      problems.push(`${path} has no option ${optionName} (it has ${options.map((option) => option.name).join(', ') || 'none'})`);
    }
  }
  return problems;
}

describe('docs/commands.md', () => {
  it('its command reference is what `npm run docs:commands` writes from the registered commands', () => {
    const markdown = readFileSync(COMMANDS_DOC, 'utf8');
    const written = generatedPart(markdown);
    expect(written, `docs/commands.md must hold the markers of the command reference once each, in order:\n${REFERENCE_START}\n${REFERENCE_END}`).not.toBeNull();
    expect(written, `docs/commands.md's command reference is out of date: run \`${REFERENCE_COMMAND}\``).toBe(renderCommandReference(definitions, contextMenus));
  });

  it('the reference names every context-menu command, where it is found and how it is used', () => {
    const reference = renderCommandReference(definitions, contextMenus);
    for (const menu of contextMenus) {
      expect(reference).toContain(`#### \`${menu.name}\` (on a ${menu.target === 'user' ? 'member' : 'message'})`);
      expect(reference).toContain(menu.help.example);
    }
  });

  it('the reference names every command, subcommand and option with its description, and the prose around it stays', () => {
    const reference = renderCommandReference(definitions);
    for (const definition of definitions) {
      expect(reference).toContain(`### \`/${definition.name}\`\n\n${definition.description}`);
      const walk = (options: Option[], path: string): void => {
        for (const option of options as Array<Option & { description: string }>) {
          if (option.type === ApplicationCommandOptionType.Subcommand || option.type === ApplicationCommandOptionType.SubcommandGroup) {
            if (option.type === ApplicationCommandOptionType.Subcommand) expect(reference).toContain(`#### \`${path} ${option.name}\`\n\n${option.description}`);
            walk(option.options ?? [], `${path} ${option.name}`);
          } else {
            expect(reference).toContain(`| \`${option.name}\` |`);
            expect(reference).toContain(option.description.replace(/\|/g, '\\|'));
          }
        }
      };
      walk((definition.options ?? []) as Option[], `/${definition.name}`);
    }
    const prose = 'Hand-written prose.\n\n';
    const rewritten = withReference(`${prose}${REFERENCE_START}\nstale\n${REFERENCE_END}\n\nMore prose.\n`, reference);
    expect(rewritten.startsWith(prose)).toBe(true);
    expect(rewritten.endsWith(`${REFERENCE_END}\n\nMore prose.\n`)).toBe(true);
    expect(generatedPart(rewritten)).toBe(reference);
  });

  it('every command is described in its prose, not only listed', () => {
    const text = prose(readFileSync(COMMANDS_DOC, 'utf8'));
    const undescribed = definitions.filter((definition) => !text.includes(`\`/${definition.name}`)).map((definition) => `/${definition.name}`);
    expect(undescribed, 'commands registered but not described in docs/commands.md (above the generated reference)').toEqual([]);
  });
});

describe('the docs name real commands', () => {
  it('every command written in README.md and docs/*.md names a registered command, subcommand and options', () => {
    const problems: string[] = [];
    for (const { file, text } of docs()) {
      for (const match of prose(text).matchAll(/`(\/[a-z][^`]*)`/g)) {
        for (const problem of problemsOf(match[1]!) ?? []) problems.push(`${file}: \`${match[1]}\`: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the README', () => {
  it('invites the bot with both scopes and exactly the permissions its invite step names', () => {
    const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
    const invite = /https:\/\/discord\.com\/oauth2\/authorize\?client_id=<APPLICATION_ID>&scope=bot\+applications\.commands&permissions=(\d+)/.exec(readme);
    expect(invite, 'the README gives the invite URL with scope=bot+applications.commands').not.toBeNull();
    // The permissions the step names in bold, read as Discord's flags: **Send Messages in Threads** → SendMessagesInThreads.
    const step = readme.slice(invite!.index, readme.indexOf('\n3. ', invite!.index));
    const flags = Object.keys(PermissionFlagsBits) as Array<keyof typeof PermissionFlagsBits>;
    const named = [...step.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]!.replace(/\s+/g, '').toLowerCase());
    const found = flags.filter((flag) => named.includes(flag.toLowerCase()));
    expect(found.length, `permissions named in the invite step: ${named.join(', ')}`).toBe(named.length);
    expect(invite![1]).toBe(new PermissionsBitField(found.map((flag) => PermissionFlagsBits[flag])).bitfield.toString());
    expect(found).toEqual(expect.arrayContaining(['ViewChannel', 'SendMessages', 'EmbedLinks']));
  });
});
