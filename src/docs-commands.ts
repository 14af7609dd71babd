/**
 * `npm run docs:commands`: rewrites the command reference of docs/commands.md (src/discord/command-reference.ts)
 * from the command definitions. An entry point of its own, as it reads commands/, the layer above src/discord.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { commands, contextMenus } from '../commands/index.js';
import { COMMANDS_DOC, renderCommandReference, withReference } from './discord/command-reference.js';

async function main(): Promise<void> {
  const before = readFileSync(COMMANDS_DOC, 'utf8');
  const after = withReference(before, renderCommandReference(commands.map((command) => command.data.toJSON()), contextMenus));
  if (after === before) {
    console.log('docs/commands.md: the command reference is up to date.');
    return;
  }
  writeFileSync(COMMANDS_DOC, after);
  console.log('docs/commands.md: the command reference was rewritten from the command definitions.');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
