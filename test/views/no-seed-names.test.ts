// Players never see "seed 001"–"seed 004": the team's working names for the systems. Every command as Discord
// shows it (name, descriptions, choices, in the one list every server is offered), and the views that named a system by its seed,
// use the names a player knows.
import { describe, expect, it } from 'vitest';
import { commands, contextMenus } from '../../commands/index.js';
import { globalCommandList } from '../../src/discord/slash-list.js';
import { SYSTEM_IDS, SYSTEMS, systemChoices, systemName } from '../../src/engine/systems/index.js';
import { playedSystemsLine, systemsMenuReply, systemsSavedText, unplayedCommandText } from '../../src/views/config.js';
import { ruleExplanation, ruleTitle } from '../../src/views/initiative.js';

const SEED_NUMBER = /seed\s*#?\s*\d/i;

describe('no seed numbers where a player looks', () => {
  it('in any command: names, descriptions, options and choices, as the global list registers them', () => {
    for (const definition of globalCommandList(commands, contextMenus)) expect(JSON.stringify(definition), definition.name).not.toMatch(SEED_NUMBER);
  });

  it('in the systems’ names, as /config, /sheet and every refusal name them', () => {
    expect(SYSTEMS.map((system) => system.name)).toEqual(['Tac Talk (Decision Engine)', 'd100 roll-under tactics', 'Die codes and result points', 'd6 pools with pushing', 'd10 pools']);
    for (const id of SYSTEM_IDS) expect(systemName(id)).not.toMatch(SEED_NUMBER);
    expect(JSON.stringify(systemChoices())).not.toMatch(SEED_NUMBER);
  });

  it('on the initiative tracker: each rule’s title and explanation', () => {
    const states = [
      ...(['melee', 'chase', 'debate'] as const).map((rule) => ({ rule, system: 'result-points' as const })),
      { rule: 'd10-phase' as const, system: 'd10-pool' as const },
      ...SYSTEM_IDS.map((system) => ({ rule: 'manual' as const, system })),
    ];
    for (const state of states) {
      expect(ruleTitle(state)).not.toMatch(SEED_NUMBER);
      expect(ruleExplanation(state)).not.toMatch(SEED_NUMBER);
    }
    expect(ruleExplanation({ rule: 'd10-phase', system: 'd10-pool' })).toMatch(/^d10 pools: actions are declared in order of Initiative/);
    expect(ruleExplanation({ rule: 'melee', system: 'result-points' })).toMatch(/^Die codes: in a melee/);
  });

  it('in /config systems: the menu, what it saved, and the refusal of a command the server does not play', () => {
    const menu = systemsMenuReply(['d6-pool'], (id) => (id === 'd6-pool' ? ['pool'] : ['x']), ['sheet', 'roll dice']);
    expect(JSON.stringify(menu)).not.toMatch(SEED_NUMBER);
    expect(systemsSavedText(['d6-pool', 'd10-pool'], 'd6-pool')).not.toMatch(SEED_NUMBER);
    expect(playedSystemsLine([...SYSTEM_IDS])).not.toMatch(SEED_NUMBER);
    expect(unplayedCommandText('/tactics check', ['d100-tactics'], ['d6-pool'])).not.toMatch(SEED_NUMBER);
  });
});
