/** The one list of commands: the router serves them and `npm run deploy` registers them. */
import type { BotCommand, BotContextMenu } from '../src/discord/command.js';
import { blindCommand } from './blind.js';
import { codeCommand } from './code.js';
import { configCommand } from './config.js';
import { contestCommand } from './contest/index.js';
import { d10Command } from './d10.js';
import { dispatchCommand } from './dispatch.js';
import { helpCommand } from './help.js';
import { initiativeCommand } from './initiative.js';
import { journalCommand } from './journal.js';
import { logCommand } from './log.js';
import { addToJournal } from './menus/add-to-journal.js';
import { challengeMenu } from './menus/challenge.js';
import { replayThisRoll } from './menus/replay-roll.js';
import { showSheetMenu } from './menus/show-sheet.js';
import { npcCommand } from './npc.js';
import { poolCommand } from './pool.js';
import { rollCommand } from './roll.js';
import { sessionCommand } from './session.js';
import { sheetCommand } from './sheet.js';
import { statsCommand } from './stats.js';
import { tableCommand } from './table.js';
import { tacticsCommand } from './tactics.js';

export const commands: readonly BotCommand[] = [sheetCommand, rollCommand, contestCommand, dispatchCommand, tableCommand, npcCommand, configCommand, logCommand, codeCommand, d10Command, poolCommand, tacticsCommand, initiativeCommand, sessionCommand, journalCommand, blindCommand, statsCommand, helpCommand];

/** The context-menu commands (right-click a message or a member → Apps), registered in the same lists as the commands. */
export const contextMenus: readonly BotContextMenu[] = [replayThisRoll, addToJournal, showSheetMenu, challengeMenu];
