/** The one list of commands: the router serves them and `npm run deploy` registers them. */
import type { BotCommand } from '../src/discord/command.js';
import { codeCommand } from './code.js';
import { configCommand } from './config.js';
import { contestCommand } from './contest/index.js';
import { d10Command } from './d10.js';
import { dispatchCommand } from './dispatch.js';
import { helpCommand } from './help.js';
import { initiativeCommand } from './initiative.js';
import { logCommand } from './log.js';
import { npcCommand } from './npc.js';
import { poolCommand } from './pool.js';
import { rollCommand } from './roll.js';
import { sheetCommand } from './sheet.js';
import { tableCommand } from './table.js';
import { tacticsCommand } from './tactics.js';

export const commands: readonly BotCommand[] = [sheetCommand, rollCommand, contestCommand, dispatchCommand, tableCommand, npcCommand, configCommand, logCommand, codeCommand, d10Command, poolCommand, tacticsCommand, initiativeCommand, helpCommand];
