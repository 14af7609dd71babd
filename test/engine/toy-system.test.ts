// A rule system is one declaration per layer: a toy system declared in test fixtures only (its engine object and
// its view, test/fixtures/toy-system.ts) is named, checks its sheets, starts a new player and replays a stored roll
// once registries are built with it, with no edit anywhere else.
import { describe, expect, it } from 'vitest';
import { replayRegistry } from '../../src/engine/replay-kind.js';
import { seededRng } from '../../src/engine/rng.js';
import { entryProblem } from '../../src/engine/sheet.js';
import { SYSTEMS } from '../../src/engine/systems/index.js';
import { defineSystem, systemRegistry } from '../../src/engine/systems/system.js';
import type { Store } from '../../src/store/index.js';
import { firstSteps, welcomeMessage } from '../../src/views/help.js';
import { defineSystemView, systemViews } from '../../src/views/system-view.js';
import { coinToss, coinTossView, COIN_SHEET, tossCoins } from '../fixtures/toy-system.js';
import { freshStoreEachTest } from '../helpers/database.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

const systems = systemRegistry([...SYSTEMS, coinToss]);
const replays = replayRegistry({}, [...SYSTEMS, coinToss]);
const views = systemViews([coinToss], [coinTossView]);

describe('a toy rule system declared in a fixture only', () => {
  it('is a system with its name, its command and its sheet rules', () => {
    expect(systems.isSystemId('coin-toss')).toBe(true);
    expect(systems.ids).toEqual([...SYSTEMS.map((system) => system.id), 'coin-toss']);
    expect(systems.systemName('coin-toss')).toBe('Coin toss');
    expect(systems.systemCommand('coin-toss')).toBe('/coin');
    expect(systems.systemChoices().at(-1)).toEqual({ name: 'Coin toss', value: 'coin-toss' });
    expect(systems.idSchema.safeParse('coin-toss').success).toBe(true);
    // A system without an initiative rule is offered a manual order.
    expect(systems.systemsWithoutInitiative).toContain('coin-toss');

    const rules = systems.sheetRulesOf('coin-toss');
    expect(rules).toBe(COIN_SHEET);
    expect(entryProblem(rules, systems.systemName('coin-toss'), 'attribute', 'Luck', 2)).toBeNull();
    expect(entryProblem(rules, systems.systemName('coin-toss'), 'attribute', 'Luck', 4)).toBe('Luck takes a value from 0 to 3 on a Coin toss sheet, not 4');
    expect(entryProblem(rules, systems.systemName('coin-toss'), 'skill', 'Climbing', 40)).toBe('a Coin toss sheet holds no skills (the attribute Luck (0–3))');
    // The bot's own systems are read as before; an unknown id still reads as the first listed.
    expect(systems.sheetRulesOf('tarot')).toBe(SYSTEMS[0].sheet);
  });

  it('starts a new player with the steps its view gives', () => {
    expect(views.start('coin-toss')).toEqual(coinTossView.start);
    const welcome = welcomeMessage(firstSteps(views.start('coin-toss'))).content;
    expect(welcome).toContain('Make your character with `/sheet create name:Troy`, add an attribute with `/sheet attribute set name:Luck value:2`, then roll: `/coin toss coins:3`.');
  });

  it('replays a stored roll of its kind from its seed, and shows it as its view says', async () => {
    expect(replays.kinds).toContain('coin');
    const inputs = { coins: 5, luck: 1 };
    const seed = 'toy-seed';
    const result = tossCoins(inputs, seededRng(seed));
    const id = await store.rolls.record({ guildId: 'g', channelId: 'c', userId: 'u', kind: 'coin', system: 'coin-toss', inputs, seed, dice: result.faces, result, total: result.total, challengeLevel: null, success: null });
    const stored = (await store.rolls.find('g', id))!;

    const rederived = await replays.replayRoll(stored.kind, stored.inputs, stored.seed);
    expect(rederived.kind).toBe('coin');
    if (rederived.kind !== 'coin') return;
    expect(rederived.result).toEqual(result);
    expect(replays.diceMatch(rederived, stored.dice)).toBe(true);
    expect(replays.diceMatch(rederived, [...result.faces].reverse().concat('heads'))).toBe(false);
    expect(views.replay.coin(rederived)).toEqual([['5 coins + Luck 1', `${result.faces.join(', ')} → **${result.total}**`]]);

    // Its stored inputs are read through its own schema, as every kind's are.
    expect(() => replays.rederive('coin', { coins: 'five', luck: 1 }, seed)).toThrow('inputs.coins should be a number (it is "five")');
  });

  it('is refused when it takes an id or a kind of roll another system has, or its view is out of place', () => {
    const twin = defineSystem({ ...coinToss, name: 'Another coin toss' });
    expect(() => systemRegistry([coinToss, twin])).toThrow('The rule system "coin-toss" is declared twice.');
    const thief = defineSystem({ ...coinToss, id: 'thief', replays: { challenge: coinToss.replays.coin } });
    expect(() => replayRegistry({}, [...SYSTEMS, thief])).toThrow('The roll kind "challenge" of thief is declared twice.');
    expect(() => systemViews([SYSTEMS[0], coinToss], [coinTossView, coinTossView] as never)).toThrow('The view of tactalk is not in its place');
  });

  it('cannot leave out of its view a kind its rolls re-derive as, nor a system out of the views (type checks)', () => {
    // @ts-expect-error the coin kind has no fields
    defineSystemView(coinToss, { start: coinTossView.start, replay: {} });
    // @ts-expect-error the toy system has no view
    expect(() => systemViews([...SYSTEMS, coinToss], [])).toThrow('The view of tactalk is not in its place');
  });
});
