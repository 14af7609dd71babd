// README.md names every rule system with its commands, as the commands declare them (commands/index.ts, each
// command's `systems` and `everywhere`), and its first two commands stay the ones a new user runs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { SYSTEMS } from '../../src/engine/systems/index.js';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const EVERY_SYSTEM = 'every system';

/** The rows of README's "Systems and their commands" table: its first cell, and the commands the second names. */
function systemRows(): Map<string, string[]> {
  const section = README.split(/^## /m).find((part) => part.startsWith('Systems and their commands'));
  expect(section, 'README.md has a section "## Systems and their commands"').toBeDefined();
  const rows = new Map<string, string[]>();
  for (const line of section!.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || cells[1] === 'system' || /^-+$/.test(cells[1]!)) continue;
    rows.set(cells[1]!.replace(/\*\*/g, ''), [...cells[2]!.matchAll(/`(\/[a-z0-9-]+(?: [a-z-]+)?)`/g)].map((match) => match[1]!));
  }
  return rows;
}

describe('README.md', () => {
  it('names each system with exactly the commands that belong to it, and the commands every server has', () => {
    const rows = systemRows();
    expect([...rows.keys()]).toEqual([...SYSTEMS.map((system) => system.name), EVERY_SYSTEM]);
    for (const system of SYSTEMS) {
      const own = commands.filter((command) => command.systems?.includes(system.id)).map((command) => `/${command.data.name}`);
      expect(rows.get(system.name)!.sort(), system.name).toEqual(own.sort());
    }
    const common = [
      ...commands.filter((command) => !command.systems).map((command) => `/${command.data.name}`),
      ...commands.flatMap((command) => (command.subcommands ?? []).filter((sub) => sub.everywhere).map((sub) => `/${command.data.name} ${sub.path}`)),
    ];
    expect(rows.get(EVERY_SYSTEM)!.sort()).toEqual(common.sort());
  });

  it('keeps its first two commands: install and run, install and test', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(README)![1]!;
    const [run, test] = firstBlock.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim());
    expect(run).toBe('npm ci && npm start');
    expect(test).toBe('npm ci && npm test && npm run test:reliability && npm run test:scale');
  });
});
