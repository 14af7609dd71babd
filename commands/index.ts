/** The one list of commands: the router serves them and `npm run deploy` registers them. */
import type { BotCommand } from '../src/discord/command.js';
import { contestCommand } from './contest.js';
import { rollCommand } from './roll.js';
import { sheetCommand } from './sheet.js';

export const commands: readonly BotCommand[] = [sheetCommand, rollCommand, contestCommand];
