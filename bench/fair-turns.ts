/**
 * Fair turns (issue 11, section 3): another player's /roll challenge while one player floods the bot with heavy
 * imports, against the same roll with no flood, next to what one import costs on its own. The goal reads
 * "during the flood ≤ 2 × without it + one heavy handler's time".
 */
import { SHEET_LIMITS } from '../src/engine/sheet.js';
import { TABLE_LIMITS } from '../src/engine/tables.js';
import type { SandboxInteractionRequest } from '../src/sandbox/fake-discord.js';
import { ROLL, type Target } from './challenge-latency.js';
import { summarize, type Summary } from './stats.js';

/** The flooding player; a Dispatcher, so that table imports are allowed too. */
const FLOODER = { user: 'flooder', roles: ['dispatcher'] };

/** A name of exactly 64 characters (the longest allowed), distinct for each `index`. */
const longName = (what: string, index: number): string => `${what} ${String(index).padStart(3, '0')} `.padEnd(64, 'x');

/**
 * A sheet file of about `targetBytes` (at most the 100 kB allowed): every list full, names at their longest,
 * pretty-printed as /sheet export writes it; the conditions list skills until the size is reached.
 */
export function heavySheetFile(targetBytes = 88_000): string {
  const skills = Array.from({ length: SHEET_LIMITS.skills }, (_, i) => ({ name: longName('Skill', i), level: 40 }));
  const sheet = {
    format: 'tactalk-operator',
    version: 1,
    name: 'Flood',
    system: 'tactalk',
    notes: 'n'.repeat(SHEET_LIMITS.notesLength),
    skills,
    archetypes: Array.from({ length: SHEET_LIMITS.archetypes }, (_, i) => ({ name: longName('Archetype', i), modifier: 5 })),
    conditions: Array.from({ length: SHEET_LIMITS.conditions }, (_, i) => ({ name: longName('Condition', i), modifier: -5, skills: [] as string[], expiresAt: null })),
    attributes: Array.from({ length: SHEET_LIMITS.attributes }, (_, i) => ({ name: longName('Attribute', i), value: 50 })),
  };
  const text = () => JSON.stringify(sheet, null, 2);
  for (let added = 0; Buffer.byteLength(text()) < targetBytes && added < SHEET_LIMITS.skills * sheet.conditions.length; added++) {
    sheet.conditions[added % sheet.conditions.length]!.skills.push(skills[Math.floor(added / sheet.conditions.length)]!.name);
  }
  return text();
}

/** A table file of about `targetBytes` (at most the 200 kB allowed): 100 rows of long text, two bytes a letter. */
export function heavyTableFile(targetBytes = 195_000): string {
  const rows = TABLE_LIMITS.rows;
  const overhead = JSON.stringify({ format: 'tactalk-table', name: 'Flood', die: 'd100', rows: Array.from({ length: rows }, (_, i) => ({ min: i + 1, max: i + 1, text: '' })) }, null, 2).length;
  const letters = Math.min(TABLE_LIMITS.textLength, Math.floor((targetBytes - overhead) / rows / 2));
  const table = {
    format: 'tactalk-table',
    name: 'Flood',
    die: 'd100',
    rows: Array.from({ length: rows }, (_, i) => ({ min: i + 1, max: i + 1, text: 'é'.repeat(letters) })),
  };
  return JSON.stringify(table, null, 2);
}

export interface Flood {
  /** What the row calls it, e.g. "16 × 88 kB /sheet import". */
  label: string;
  /** How many of the flooder's imports are kept in flight at once. */
  inFlight: number;
  request: SandboxInteractionRequest;
  /** The file's size in bytes. */
  bytes: number;
}

export function sheetFlood(inFlight = 16): Flood {
  const content = heavySheetFile();
  const bytes = Buffer.byteLength(content);
  return {
    label: `${inFlight} × ${Math.round(bytes / 1000)} kB /sheet import`,
    inFlight,
    bytes,
    request: { ...FLOODER, command: 'sheet import', options: { file: { filename: 'flood.json', content }, replace: true } },
  };
}

export function tableFlood(inFlight = 40): Flood {
  const content = heavyTableFile();
  const bytes = Buffer.byteLength(content);
  return {
    label: `${inFlight} × ${Math.round(bytes / 1000)} kB /table import`,
    inFlight,
    bytes,
    request: { ...FLOODER, command: 'table import', options: { file: { filename: 'flood.json', content }, replace: true } },
  };
}

export interface FairTurnsFigures {
  /** mike's /roll challenge, command → first answer (ms), with no flood. */
  aloneMs: number[];
  /** The same, while the flooder keeps `inFlight` imports going. */
  duringMs: number[];
  /** One of the flooder's imports on its own, command → first answer (ms): one heavy handler's time. */
  heavyMs: number[];
  /** Imports the flooder got answered during the flood. */
  floodAnswered: number;
  /** How long the flood blocks lasted in all (ms), from the first import sent to the last answered. */
  floodMs: number;
  /** Of those, answered first by an acknowledgement (the bot deferred them). */
  floodDeferred: number;
  /** Of mike's rolls during the flood, answered first by an acknowledgement. */
  rollsDeferred: number;
}

/** One interaction, its first answer's time; a problem is recorded on the target and yields undefined. */
async function timed(target: Target, request: SandboxInteractionRequest, what: string): Promise<{ ms: number; deferred: boolean } | undefined> {
  try {
    const result = await target.fake.interact(request);
    if (result.errors.length > 0) target.problems.push(`${what}: ${result.errors.join('; ')}`);
    else if (result.firstResponseMs === undefined) target.problems.push(`${what}: no callback: ${JSON.stringify(result.responses).slice(0, 300)}`);
    else return { ms: result.firstResponseMs, deferred: result.responses[0]?.kind === 'deferred' };
  } catch (error) {
    target.problems.push(`${what}: ${String(error)}`);
  }
  return undefined;
}

/**
 * `blocks` blocks of `perBlock` sequential rolls from mike, alternately alone and during the flood (ABBA, so a slow
 * spell of the machine hits both alike), after `heavyCount` imports one after another on their own. During a flood
 * block the flooder keeps `flood.inFlight` imports in flight (the next sent as soon as one is answered); mike
 * starts once the first of them was answered, so he meets the flood in its steady state.
 */
export async function fairTurns(target: Target, flood: Flood, options: { blocks: number; perBlock: number; heavyCount: number }): Promise<FairTurnsFigures> {
  const figures: FairTurnsFigures = { aloneMs: [], duringMs: [], heavyMs: [], floodAnswered: 0, floodMs: 0, floodDeferred: 0, rollsDeferred: 0 };
  for (let i = 0; i < options.heavyCount; i++) {
    const answer = await timed(target, flood.request, flood.label);
    if (answer) figures.heavyMs.push(answer.ms);
  }
  const rolls = async (into: number[], duringFlood: boolean): Promise<void> => {
    for (let i = 0; i < options.perBlock; i++) {
      const answer = await timed(target, ROLL, 'roll beside the flood');
      if (!answer) continue;
      into.push(answer.ms);
      if (duringFlood && answer.deferred) figures.rollsDeferred++;
    }
  };
  for (let block = 0; block < options.blocks; block++) {
    const withFlood = block % 4 === 1 || block % 4 === 2;
    if (!withFlood) {
      await rolls(figures.aloneMs, false);
      continue;
    }
    const floodStarted = performance.now();
    let flooding = true;
    let firstAnswered: () => void = () => {};
    const underway = new Promise<void>((resolve) => (firstAnswered = resolve));
    const flooder = async (): Promise<void> => {
      while (flooding) {
        const answer = await timed(target, flood.request, flood.label);
        firstAnswered();
        if (!answer) continue;
        figures.floodAnswered++;
        if (answer.deferred) figures.floodDeferred++;
      }
    };
    const flooders = Array.from({ length: flood.inFlight }, flooder);
    await underway;
    await rolls(figures.duringMs, true);
    flooding = false;
    await Promise.all(flooders);
    figures.floodMs += performance.now() - floodStarted;
  }
  return figures;
}

/** The goal: another player's roll during the flood takes at most twice as long as without, plus one import. */
export const FAIR_TURNS_GOAL = { timesAlone: 2, plusHeavy: 1 };

export interface FairTurnsSummary {
  flood: string;
  alone: Summary;
  during: Summary;
  heavy: Summary;
  /** 2 × alone + one import alone, each at p50 and at p95. */
  bound: { p50: number; p95: number };
  met: { p50: boolean; p95: boolean };
  floodAnswered: number;
  /** The flooder's imports answered per second during the flood: what the flood itself still gets. */
  floodPerSecond: number;
  floodDeferred: number;
  rollsDeferred: number;
}

export function summarizeFairTurns(flood: Flood, figures: FairTurnsFigures): FairTurnsSummary {
  const alone = summarize(figures.aloneMs);
  const during = summarize(figures.duringMs);
  const heavy = summarize(figures.heavyMs);
  // Each percentile against the same percentile: a roll at the p95 meets the flood at its p95 too.
  const bound = {
    p50: FAIR_TURNS_GOAL.timesAlone * alone.median + FAIR_TURNS_GOAL.plusHeavy * heavy.median,
    p95: FAIR_TURNS_GOAL.timesAlone * alone.p95 + FAIR_TURNS_GOAL.plusHeavy * heavy.p95,
  };
  return {
    flood: flood.label,
    alone,
    during,
    heavy,
    bound,
    met: { p50: during.median <= bound.p50, p95: during.p95 <= bound.p95 },
    floodAnswered: figures.floodAnswered,
    floodPerSecond: figures.floodAnswered / (figures.floodMs / 1000),
    floodDeferred: figures.floodDeferred,
    rollsDeferred: figures.rollsDeferred,
  };
}

/** The table's rows for one flood: p50 and p95, the floor being the same roll with no flood. */
export function fairTurnsRows(summary: FairTurnsSummary): string[][] {
  const ms = (value: number): string => `${value.toFixed(value < 100 ? 2 : 0)} ms`;
  const row = (label: string, during: number, alone: number, heavy: number, bound: number, met: boolean): string[] => [
    `Another player's /roll challenge during ${summary.flood} from one player, ${label} (floor: no flood)`,
    ms(during),
    ms(alone),
    `${(during / alone).toFixed(2)}×`,
    `≤ 2× + one import (${ms(heavy)}) = ${ms(bound)}`,
    met ? 'yes' : '**no**',
  ];
  return [
    row('p50', summary.during.median, summary.alone.median, summary.heavy.median, summary.bound.p50, summary.met.p50),
    row('p95', summary.during.p95, summary.alone.p95, summary.heavy.p95, summary.bound.p95, summary.met.p95),
  ];
}

/** One line of details for a flood: the import's own time, and how the flood itself was answered. */
export function fairTurnsDetails(summary: FairTurnsSummary): string {
  return (
    `${summary.flood}: one import alone p50 ${summary.heavy.median.toFixed(1)} ms, p95 ${summary.heavy.p95.toFixed(1)} ms; ` +
    `rolls n=${summary.during.n} during / ${summary.alone.n} without, ${summary.rollsDeferred} acknowledged first; ` +
    `${summary.floodAnswered} imports answered during the flood (${summary.floodPerSecond.toFixed(0)}/s), ${summary.floodDeferred} of them acknowledged first`
  );
}
