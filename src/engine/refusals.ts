/**
 * What the store and the engine refuse, and why, as data: a `Refusal` names its kind and carries what the words need
 * (the sheet's name, the count, the limit, the system, whose sheet). The words themselves, with the commands a user
 * can turn to, live in src/views/refusals.ts; `Refused` is the UserError that carries a refusal up to whoever
 * answers, so every catch that knows UserError keeps working.
 */
import { UserError } from '../errors.js';

/** The entries a sheet holds a limited number of (SHEET_LIMITS). */
export type SheetEntryKind = 'skill' | 'archetype' | 'attribute' | 'condition';

/** The lists whose names are kept apart: a member's sheets, the server's NPCs and outcome tables, a sheet's entries. */
export type NameList = 'sheet' | 'npc' | 'table' | SheetEntryKind;

/** A skill on the sheet as a refusal shows it: its name and level. */
export interface SkillShown {
  name: string;
  level: number;
}

export type Refusal =
  /** The sheet a change was aimed at was deleted (or belongs to another server): nothing was written. */
  | { kind: 'sheet-gone' }
  /** An NPC is always named: there is no current NPC to fall back on. */
  | { kind: 'npc-unnamed' }
  /** No sheet was named and there is no current one; `someoneElse` names the owner when it is not the acting user. */
  | { kind: 'no-current-sheet'; someoneElse: string | null; hasSheets: boolean }
  /**
   * No active sheet of `system`: `sheets` are the owner's sheets of that system (none active), `others` a few of
   * theirs of other systems; `command` is the command that asked, when not the system's own.
   */
  | {
      kind: 'no-active-sheet';
      /** A system id: a plain string, so refusals sit below the systems whose sheet rules refuse with them. */
      system: string;
      command: string | null;
      someoneElse: string | null;
      sheets: string[];
      others: Array<{ name: string; system: string }>;
    }
  /** The named sheet is of another system than the command reads. */
  | { kind: 'wrong-system'; sheet: string; sheetSystem: string; system: string; command: string | null; npc: boolean }
  /** No sheet (or NPC) by the typed name; `suggestions` are the nearest names. */
  | { kind: 'no-such-sheet'; typed: string; npc: boolean; suggestions: string[] }
  /**
   * A new name looks just like one already in its list (names.ts, `lookAlikeIn`: "Тroy" with a Cyrillic Т beside
   * "Troy"): `list` says which list (a member's sheets, the server's NPCs or tables, a sheet's entries).
   */
  | { kind: 'name-looks-alike'; list: NameList; name: string; existing: string }
  /** Another sheet (or NPC) of the same owner already has the name. */
  | { kind: 'sheet-name-taken'; name: string; npc: boolean }
  /** The owner already has the most sheets (or the server the most NPCs). */
  | { kind: 'sheet-limit'; count: number; most: number; npc: boolean }
  /** An import would make a sheet over one of the same name, without `replace`. */
  | { kind: 'import-name-taken'; name: string }
  /** An import would make one sheet more than the most a player may have. */
  | { kind: 'import-sheet-limit'; count: number; most: number }
  /** A sheet already holds the most entries of a kind. */
  | { kind: 'entry-limit'; entry: SheetEntryKind; most: number }
  /** The sheet has no skill by the typed name; `nearest` or else `first` are skills it has, `otherwise` what else the command accepts. */
  | {
      kind: 'no-such-skill';
      sheet: string;
      npc: boolean;
      typed: string;
      nearest: SkillShown[];
      first: SkillShown[];
      more: boolean;
      otherwise: string | null;
      /** The player (a user id) whose sheet it is, when a Dispatcher called for their roll: the hint then names them. */
      forPlayer?: string;
    }
  /** The sheet has no attribute or archetype by the typed name; `suggestions` are the nearest, `hasAny` whether it has any. */
  | { kind: 'no-such-entry'; sheet: string; entry: 'attribute' | 'archetype'; typed: string; suggestions: string[]; hasAny: boolean }
  /** No outcome table by the typed name on the server. */
  | { kind: 'no-such-table'; typed: string; suggestions: string[] }
  /** The server already has the most outcome tables. */
  | { kind: 'table-limit'; count: number; most: number }
  /** No roll of this server with the typed id. */
  | { kind: 'no-such-roll'; typed: string }
  /** Roll again was pressed on a roll already rolled again: each press makes one roll. */
  | { kind: 'already-rolled-again' }
  /** No saved roll of that name on the member's sheet or the server. */
  | { kind: 'no-such-saved-roll'; typed: string; suggestions: string[] }
  /** The sheet (or the server, `shared`) already holds the most saved rolls. */
  | { kind: 'saved-roll-limit'; shared: boolean; most: number }
  /** What was typed is longer than a saved roll keeps (INVOCATION_MAX_CHARS). */
  | { kind: 'saved-roll-too-long' }
  /** The server already has the most open initiative trackers. */
  | { kind: 'tracker-limit'; most: number }
  /** The player (or the NPC's name) is already in the initiative. */
  | { kind: 'already-in-initiative'; name: string; player: boolean }
  /** Next was pressed on an initiative nobody is in. */
  | { kind: 'initiative-empty' }
  /** A die-code character who conceded the scene acts before it ends. */
  | { kind: 'conceded'; who: string }
  /** A die-code character out of action on a track acts. */
  | { kind: 'out-of-action'; who: string; track: string; points: number; outAt: number };

export type RefusalKind = Refusal['kind'];

/** A refusal on its way to the user. Its message is for logs (kind and data); the user reads views/refusals.ts's words. */
export class Refused extends UserError {
  constructor(readonly refusal: Refusal) {
    super(`refused: ${JSON.stringify(refusal)}`);
  }
}

export function isRefused(error: unknown): error is Refused {
  return error instanceof Refused;
}
