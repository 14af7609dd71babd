/**
 * The words of every refusal (src/engine/refusals.ts), as users read them: what was refused and what to do
 * instead, naming the commands that help. One case per kind: a new kind without words fails the type check.
 */
import { INVOCATION_MAX_CHARS } from '../engine/invocation.js';
import { lookAlikeDifference } from '../engine/names.js';
import type { NameList, Refusal, SkillShown } from '../engine/refusals.js';
import { systemCommand, systemName } from '../engine/systems/index.js';
import { escapeMarkdown } from './format.js';

const bold = (names: string[]) => names.map((name) => `**${name}**`).join(', ');
const didYouMean = (suggestions: string[]) => ` Did you mean ${bold(suggestions)}?`;
const shownSkills = (skills: SkillShown[]) => skills.map((skill) => `**${skill.name}** ${skill.level}`).join(', ');

/** Where the look-alike of a new name is: "your sheet", "this server's table", "this sheet's skill"… */
const LIST_PLACES: Record<NameList, string> = {
  sheet: 'your sheet',
  npc: 'this server’s NPC',
  table: 'this server’s table',
  skill: 'this sheet’s skill',
  archetype: 'this sheet’s archetype',
  attribute: 'this sheet’s attribute',
  condition: 'this sheet’s condition',
};

/** A character as Unicode names its code point and, for the scripts look-alikes come from, its script. */
function characterShown(char: string): string {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const script = ['Cyrillic', 'Greek', 'Latin', 'Armenian', 'Cherokee', 'Coptic'].find((name) => new RegExp(`\\p{Script=${name}}`, 'u').test(char));
  return `"${char}" (${code}${script ? `, ${script}` : ''})`;
}

/** "a, b or c" */
function either(ways: string[]): string {
  return ways.length > 1 ? `${ways.slice(0, -1).join(', ')} or ${ways[ways.length - 1]}` : ways[0]!;
}

export function refusalText(refusal: Refusal): string {
  switch (refusal.kind) {
    case 'sheet-gone':
      return 'That sheet no longer exists on this server. Nothing was changed.';
    case 'npc-unnamed':
      return 'Name the NPC: NPCs are always named (see `/npc list`).';
    case 'no-current-sheet': {
      const { someoneElse, hasSheets } = refusal;
      if (someoneElse) return hasSheets ? `${someoneElse} has no active sheet; name one.` : `${someoneElse} has no Operator sheet on this server.`;
      return hasSheets
        ? 'You have no active sheet. Pick one with `/sheet use name:<name>` (see `/sheet list`), or name the sheet.'
        : 'You have no Operator sheet on this server yet. Create one with `/sheet create name:<name>`.';
    }
    case 'no-active-sheet': {
      const { someoneElse, sheets, others } = refusal;
      const command = refusal.command ?? systemCommand(refusal.system);
      const kind = systemName(refusal.system);
      if (someoneElse) {
        return sheets.length === 0
          ? `\`${command}\` rolls a ${kind} sheet; ${someoneElse} has none on this server.`
          : `${someoneElse} has ${sheets.length} ${kind} sheets and none is active; they pick one with \`/sheet use\`.`;
      }
      if (sheets.length === 0) {
        const yours = others.length > 0 ? ` (yours: ${others.map((other) => `**${other.name}**, ${systemName(other.system)}`).join('; ')})` : '';
        return `\`${command}\` rolls a ${kind} sheet; you have none${yours}. Make one with \`/sheet create name:… system:${kind}\`.`;
      }
      return `You have ${sheets.length} ${kind} sheets and none is active: pick the one \`${command}\` rolls with \`/sheet use name:…\` (${bold(sheets)}).`;
    }
    case 'wrong-system': {
      const wanted = systemName(refusal.system);
      return (
        `**${refusal.sheet}** is a ${systemName(refusal.sheetSystem)} sheet; \`${refusal.command ?? systemCommand(refusal.system)}\` reads a ${wanted} sheet. ` +
        (refusal.npc ? 'Name an NPC of that system (`/npc list`), or make one with `/npc create … system:' : 'Name one of that system, or make one with `/sheet create … system:') +
        `${wanted}\`.`
      );
    }
    case 'no-such-sheet':
      return (
        `There is no ${refusal.npc ? 'NPC' : 'sheet'} named **${refusal.typed}**.` +
        (refusal.suggestions.length > 0 ? didYouMean(refusal.suggestions) : ` See ${refusal.npc ? '`/npc list`' : '`/sheet list`'}.`)
      );
    case 'name-looks-alike': {
      const { name, existing } = refusal;
      const difference = lookAlikeDifference(name, existing);
      const told = difference ? `, where its ${characterShown(difference)} passes for another letter` : '';
      return (
        `**${name}** looks just like ${LIST_PLACES[refusal.list]} **${existing}**${told}: two names that look the same would be taken for each other. ` +
        `Choose a name that can be told apart (or use **${existing}**). Nothing was changed.`
      );
    }
    case 'sheet-name-taken':
      return refusal.npc ? `This server already has an NPC named **${refusal.name}**.` : `You already have a sheet named **${refusal.name}**.`;
    case 'sheet-limit':
      return `${refusal.npc ? `This server already has ${refusal.count} NPCs` : `You already have ${refusal.count} sheets on this server`}, the most allowed. Delete one first.`;
    case 'import-name-taken':
      return `You already have a sheet named **${refusal.name}**. Import again with \`replace:True\` to overwrite it, or rename it first. Nothing was changed.`;
    case 'import-sheet-limit':
      return `You already have ${refusal.count} sheets on this server, the most allowed. Nothing was changed.`;
    case 'entry-limit':
      return `A sheet holds at most ${refusal.most} ${refusal.entry}s; remove one first.`;
    case 'no-such-skill': {
      const { sheet, typed } = refusal;
      const known =
        refusal.nearest.length > 0
          ? ` Nearest: ${shownSkills(refusal.nearest)}.`
          : refusal.first.length > 0
            ? ` Its skills: ${shownSkills(refusal.first)}${refusal.more ? ', …' : ''}.`
            : ` ${sheet} has no skills yet.`;
      // A Dispatcher calling for a player's roll adds the skill to that player's sheet: `player:` names them.
      const add = refusal.npc
        ? `\`/npc skill set npc:${sheet} name:${typed} level:…\``
        : refusal.forPlayer
          ? `\`/sheet skill set name:${typed} level:… player:\` <@${refusal.forPlayer}>`
          : `\`/sheet skill set name:${typed} level:…\``;
      const hasSkills = refusal.nearest.length > 0 || refusal.first.length > 0;
      const ways = [...(hasSkills ? [refusal.forPlayer ? 'call for one of those' : 'roll one of those'] : []), `add it with ${add}`, ...(refusal.otherwise ? [refusal.otherwise] : [])];
      return `${sheet} has no skill named **${typed}**.${known} You can ${either(ways)}.`;
    }
    case 'no-such-entry': {
      const hint = refusal.suggestions.length > 0 ? didYouMean(refusal.suggestions) : refusal.hasAny ? '' : ` ${refusal.sheet} has no ${refusal.entry}s yet.`;
      return `${refusal.sheet} has no ${refusal.entry} named **${refusal.typed}**.${hint}`;
    }
    case 'no-such-table':
      return `There is no outcome table named **${refusal.typed}** on this server.` + (refusal.suggestions.length > 0 ? didYouMean(refusal.suggestions) : ' See `/table list`.');
    case 'table-limit':
      return `This server has ${refusal.count} outcome tables, the most allowed. Delete one first. Nothing was changed.`;
    case 'no-such-saved-roll': {
      const hint = refusal.suggestions.length > 0 ? didYouMean(refusal.suggestions) : ' See yours and the server’s with `/roll saved-list`.';
      return `There is no saved roll named **${escapeMarkdown(refusal.typed)}**.${hint}`;
    }
    case 'saved-roll-limit':
      return refusal.shared
        ? `This server already shares ${refusal.most} saved rolls, the most it may. Delete one with \`/roll saved-delete name:… shared:True\` first. Nothing was saved.`
        : `This sheet already holds ${refusal.most} saved rolls, the most a sheet may. Delete one with \`/roll saved-delete name:…\`, or save it under the name of one to replace it. Nothing was saved.`;
    case 'saved-roll-too-long':
      return `This roll's options are longer than a saved roll keeps (${INVOCATION_MAX_CHARS} characters). Nothing was saved.`;
    case 'already-rolled-again':
      return 'This roll was already rolled again. Press **Roll again** on the newer roll to roll once more. Nothing was rolled.';
    case 'no-such-roll':
      return `There is no roll with the id \`${refusal.typed}\`. Roll ids are the 8 characters in an embed's footer.`;
    case 'tracker-limit':
      return `This server already has ${refusal.most} open initiative trackers, the most it may have. End one (\`/initiative end\` in its channel) first.`;
    case 'already-in-initiative':
      return refusal.player
        ? `You are already in this initiative as **${refusal.name}**. To change it, leave (\`/initiative leave\`) and join again.`
        : `There is already an NPC named **${refusal.name}** here.`;
    case 'initiative-empty':
      return 'Nobody is in this initiative yet: players join with `/initiative join`, the Dispatcher adds NPCs with `/initiative npc`.';
    case 'conceded':
      return `${refusal.who} conceded this scene and may take no more actions until a Dispatcher ends it (\`/code scene-end\`). Nothing was rolled.`;
    case 'out-of-action':
      return `${refusal.who} is out of action: ${refusal.track} ${refusal.points} (${refusal.outAt} or more is Overwhelming). Lower the track (\`/code track\`) before ${refusal.who} acts again. Nothing was rolled.`;
  }
}
