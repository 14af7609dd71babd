// Seed 004's initiative: an Initiative total from a d10 pool, rolled again each phase; declared lowest to highest.
import { describe, expect, it } from 'vitest';
import { addCombatant, newTracker, nextTurn, orderOf } from '../../../../src/engine/initiative.js';
import { rederive } from '../../../../src/engine/replay.js';
import { seededRng } from '../../../../src/engine/rng.js';
import { D10_PHASE_RULE, initiativePool, phaseInitiativeDice, rollPhaseInitiative } from '../../../../src/engine/systems/d10-pool/initiative.js';
import { scriptedFaces } from '../../../helpers/faces.js';

describe('the Initiative total', () => {
  it('is the pool read as every pool is (highest + 1 per match) plus the modifier: 2, 8, 8 with +5 → 14', () => {
    const [entry] = rollPhaseInitiative({ phase: 1, entries: [{ name: 'Leroy', dice: 3, modifier: 5 }] }, scriptedFaces(2, 8, 8)).entries;
    expect(entry).toMatchObject({ total: 14, reading: { faces: [2, 8, 8], natural: 9 } });
  });

  it('knows no stress mishap (initiative is no success or failure): all 1s are read as 1 + matches', () => {
    const [entry] = rollPhaseInitiative({ phase: 1, entries: [{ name: 'Earl', dice: 2, modifier: 0 }] }, scriptedFaces(1, 1)).entries;
    expect(entry).toMatchObject({ total: 2, reading: { mishap: null } });
  });

  it('zero or fewer dice still roll one die', () => {
    const [entry] = rollPhaseInitiative({ phase: 1, entries: [{ name: 'Crippled', dice: -2, modifier: 3 }] }, scriptedFaces(2)).entries;
    expect(entry).toMatchObject({ total: 5, reading: { faces: [2], zeroDice: true, mishap: null } });
  });

  it('a pool as typed: −20…30 dice, a modifier of ±50', () => {
    expect(initiativePool('Leroy', ' 3 ', -2)).toEqual({ name: 'Leroy', dice: 3, modifier: -2 });
    expect(() => initiativePool('x', '31', 0)).toThrow(/from -20 to 30/);
    expect(() => initiativePool('x', 'three', 0)).toThrow(/number of d10s/);
    expect(() => initiativePool('x', '2', 51)).toThrow(/modifier/);
  });
});

describe('declared lowest to highest', () => {
  it('the seed’s example: Leroy (16) declares before Earl (21)', () => {
    const rolled = rollPhaseInitiative(
      { phase: 1, entries: [{ name: 'Earl', dice: 2, modifier: 13 }, { name: 'Leroy', dice: 2, modifier: 8 }] },
      scriptedFaces(8, 3, 8, 5),
    );
    expect(rolled.entries.map((entry) => entry.total)).toEqual([21, 16]);
    const state = rolled.entries.reduce(
      (tracker, entry) =>
        addCombatant(tracker, { key: `npc:${entry.name}`, name: entry.name, playerId: null, sheetId: null, source: { kind: 'pool', dice: entry.dice, modifier: entry.modifier }, total: entry.total, dice: [entry.reading.faces], rollId: 'r' }),
      newTracker(D10_PHASE_RULE, 'gm'),
    );
    expect(orderOf(state).map((entry) => entry.combatant.name)).toEqual(['Leroy', 'Earl']);
    const begun = nextTurn(state);
    expect('state' in begun && begun.state.turn).toBe('npc:Leroy');
  });

  it('a phase’s roll replays from its seed with the same dice (kind d10-initiative)', () => {
    const input = { phase: 2, entries: [{ name: 'Leroy', dice: 2, modifier: 8 }, { name: 'Earl', dice: 3, modifier: 11 }] };
    const rolled = rollPhaseInitiative(input, seededRng('phase 2'));
    expect(rederive('d10-initiative', JSON.parse(JSON.stringify(input)), 'phase 2').dice).toEqual(phaseInitiativeDice(rolled));
  });
});
