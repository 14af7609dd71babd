// Every family of component custom_ids (src/views/component-id.ts): what a button stands for comes back from its id
// unchanged, every id fits Discord's 100 characters even for the longest values, and an id of another family, or
// one the bot never wrote, parses to nothing (the router then asks for the command again) rather than throwing.
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { blindIds } from '../../src/views/blind.js';
import type { ComponentIds } from '../../src/views/component-id.js';
import { configIds } from '../../src/views/config.js';
import { acceptModal, skillSearchModal } from '../../src/views/contest/forms.js';
import { contestIds, type ContestControl } from '../../src/views/contest/ids.js';
import { d10Ids } from '../../src/views/d10-pool.js';
import { poolIds } from '../../src/views/d6-pool.js';
import { initiativeIds } from '../../src/views/initiative.js';
import { logIds } from '../../src/views/log.js';
import { codeIds } from '../../src/views/result-points.js';
import { callModal, dispatchIds } from '../../src/views/roll-request.js';
import { rollIds } from '../../src/views/roll-again.js';
import { npcIds, sheetIds } from '../../src/views/sheet.js';
import { tableIds } from '../../src/views/tables.js';
import { tacticsIds } from '../../src/views/tactics.js';

/** The largest row id PostgreSQL's Int holds, and a Discord snowflake of the most digits. */
const ROW = 2_147_483_647;
const SNOWFLAKE = '18446744073709551615';
const ROLL = 'abcd2345';
const LONGEST_NAME = 'ｘ'.repeat(63) + ':';

interface Family<T> {
  ids: ComponentIds<T>;
  samples: T[];
}
const family = <T>(ids: ComponentIds<T>, samples: T[]): Family<T> => ({ ids, samples });

const contestSamples: ContestControl[] = [
  { action: 'accept', contestId: 1 },
  { action: 'accepttie', contestId: ROW },
  { action: 'adjustform', contestId: ROW },
  { action: 'role', contestId: ROW, role: 'defender' },
  { action: 'skill', contestId: 7, side: 'opponent' },
  { action: 'searchform', contestId: ROW, side: 'challenger' },
];

/** One entry per command that has components: a new one without samples here fails the first test. */
const families: Record<string, Family<unknown>> = {
  blind: family(blindIds, [{ action: 'show', rollId: ROLL }, { action: 'reveal', rollId: ROLL }]),
  code: family(codeIds, [{ action: 'spend', rollId: ROLL }]),
  config: family(configIds, ['systems']),
  contest: family(contestIds, contestSamples),
  d10: family(d10Ids, [{ cumulativeId: ROLL, step: 2 }, { cumulativeId: ROLL, step: 99 }]),
  dispatch: family(dispatchIds, [
    { action: 'call', requestId: 3 },
    { action: 'consequence', requestId: ROW },
    { action: 'callform', requestId: ROW },
    { action: 'fixform', requestId: ROW },
    { action: 'fixedform', requestId: ROW },
  ]),
  initiative: family(initiativeIds, [
    { action: 'next', trackerId: 1, version: 0 },
    { action: 'previous', trackerId: ROW, version: ROW },
    { action: 'confirm-end', trackerId: ROW, askerId: SNOWFLAKE },
    { action: 'keep', trackerId: ROW },
  ]),
  log: family(logIds, [
    { query: { viewerId: SNOWFLAKE, userId: null, count: null, page: 1 }, direction: 'newer', cursor: { createdAt: new Date(0), id: ROLL } },
    { query: { viewerId: SNOWFLAKE, userId: SNOWFLAKE, count: 1000, page: 99_999 }, direction: 'older', cursor: { createdAt: new Date(4_102_444_800_000), id: `${ROLL}-next` } },
  ]),
  npc: family(npcIds, [{ action: 'delete', sheetId: ROW }, { action: 'keep', sheetId: 1 }]),
  roll: family(rollIds, [{ action: 'again', rollId: ROLL }, { action: 'save', rollId: ROLL }, { action: 'saveform', rollId: ROLL }]),
  pool: family(poolIds, [{ action: 'push', rollId: ROLL }, { action: 'condition', rollId: ROLL }, { action: 'oppose', rollId: ROLL }, { action: 'tiebreak', rollId: ROLL, round: 99 }]),
  sheet: family(sheetIds, [{ action: 'delete', sheetId: ROW }, { action: 'keep', sheetId: 1 }]),
  table: family(tableIds, [
    { action: 'keep' },
    { action: 'delete', askerId: SNOWFLAKE, tableName: LONGEST_NAME },
    { action: 'next', rollId: ROLL, sheetId: ROW },
    { action: 'next', rollId: ROLL, sheetId: null },
  ]),
  tactics: family(tacticsIds, [{ action: 'apply', rollId: ROLL }]),
};

describe('component id families', () => {
  it('has one family per command with buttons, menus or forms, named after it', () => {
    const withComponents = commands.filter((command) => command.component);
    expect(withComponents.map((command) => command.data.name).sort()).toEqual(Object.keys(families).sort());
    for (const command of withComponents) {
      expect(command.ids, `/${command.data.name}`).toBeDefined();
      expect(command.ids!.family).toBe(command.data.name);
      expect(command.ids).toBe(families[command.data.name]!.ids);
    }
  });

  for (const [name, { ids, samples }] of Object.entries(families)) {
    it(`${name}: each value comes back from its id, and every id fits 100 characters`, () => {
      for (const value of samples) {
        const id = ids.encode(value);
        expect(id.startsWith(`${name}:`)).toBe(true);
        expect(id.length, id).toBeLessThanOrEqual(100);
        expect(ids.parse(id), id).toEqual(value);
      }
    });

    it(`${name}: an id of another family, or one the bot never wrote, parses to null`, () => {
      const own = ids.encode(samples[0]!);
      const foreign = Object.entries(families).filter(([other]) => other !== name).map(([, other]) => other.ids.encode(other.samples[0]!));
      const malformed = ['', name, `${name}:`, `${name}:nonsense`, `${own}:extra`, own.replace(/\d+/, 'x'), `${name}X${own.slice(name.length)}`, `${name}:%00:%00:%00`];
      for (const id of [...foreign, ...malformed]) {
        if (id === own) continue;
        expect(() => ids.parse(id)).not.toThrow();
        const parsed = ids.parse(id);
        // An id of this family that another value encodes to is fine; anything else is not the family's.
        if (parsed !== null) expect(ids.encode(parsed), id).toBe(id);
      }
      for (const id of foreign) expect(ids.parse(id), id).toBeNull();
    });
  }

  it('says where each control comes from: a press on its message, or a form opened by a press of the same thing', () => {
    for (const [name, { ids, samples }] of Object.entries(families)) {
      for (const value of samples) {
        const origin = ids.originOf(value);
        if ('pressed' in origin) {
          expect(origin.pressed.length, `${name}: ${ids.encode(value)}`).toBeGreaterThan(0);
          continue;
        }
        // A form is opened by a button or a menu of its family, never by another form.
        expect(origin.formOpenedBy.length, ids.encode(value)).toBeGreaterThan(0);
        for (const opener of origin.formOpenedBy) expect(ids.originOf(opener), `${ids.encode(value)} opened by ${ids.encode(opener)}`).toHaveProperty('pressed');
      }
    }
    // Each form the views build is declared a form, opened by the control whose handler shows it.
    const formOf = <T>(ids: ComponentIds<T>, customId: string) => ids.originOf(ids.parse(customId)!);
    const sheet = { name: 'Troy', skills: [{ name: 'CQC', level: 40 }], archetypes: [] };
    expect(formOf(contestIds, acceptModal(7, sheet).data.custom_id!)).toEqual({ formOpenedBy: [{ action: 'accept', contestId: 7 }] });
    expect(formOf(contestIds, skillSearchModal(7, 'opponent').data.custom_id!)).toEqual({ formOpenedBy: [{ action: 'skill', contestId: 7, side: 'opponent' }] });
    expect(contestIds.originOf({ action: 'adjustform', contestId: 7 })).toEqual({ formOpenedBy: [{ action: 'adjust', contestId: 7 }] });
    expect(formOf(dispatchIds, callModal(3).data.custom_id!)).toEqual({ formOpenedBy: [{ action: 'call', requestId: 3 }] });
    // The same form reopened from the private note of a refusal: opened by that note's *Fix the form*.
    expect(formOf(dispatchIds, callModal(3, { fixed: true }).data.custom_id!)).toEqual({ formOpenedBy: [{ action: 'fixform', requestId: 3 }] });
    // The menus are selects (a Push was a button on older messages); everything else is a button.
    expect(contestIds.originOf({ action: 'skill', contestId: 7, side: 'opponent' })).toEqual({ pressed: ['select'] });
    expect(configIds.originOf('systems')).toEqual({ pressed: ['select'] });
    expect(poolIds.originOf({ action: 'push', rollId: ROLL })).toEqual({ pressed: ['select', 'button'] });
    expect(sheetIds.originOf({ action: 'keep', sheetId: 1 })).toEqual({ pressed: ['button'] });
  });

  it('refuses to encode an id Discord would reject, as a bug', () => {
    expect(() => tableIds.encode({ action: 'delete', askerId: SNOWFLAKE, tableName: 'x'.repeat(80) })).toThrow(/longer than Discord's 100/);
  });

  it('reads the ids already posted on Discord, as they were written', () => {
    expect(contestIds.parse('contest:role:12:attacker')).toEqual({ action: 'role', contestId: 12, role: 'attacker' });
    expect(dispatchIds.parse('dispatch:roll:4')).toEqual({ action: 'roll', requestId: 4 });
    expect(tableIds.parse('table:next:abcd2345:0')).toEqual({ action: 'next', rollId: 'abcd2345', sheetId: null });
    expect(poolIds.parse('pool:tiebreak:abcd2345:1')).toEqual({ action: 'tiebreak', rollId: 'abcd2345', round: 1 });
    expect(contestIds.parse('contest:role:12:referee')).toBeNull();
    expect(contestIds.parse('contest:accept:1.5')).toBeNull();
  });
});
