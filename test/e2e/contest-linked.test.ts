// Seed 000, "Resolving Contests": the Dispatcher may dispute a player's skill "if they believe … a Linked Challenge
// Roll should be made instead". Through the fake Discord: the Dispatcher's adjust form turns Troy's roll into a linked
// roll (Handgun Handling and Driving, the seed's own linked example), the message shows its parts and the exact odds,
// both players confirm Ready again, the result shows each part and "N of M succeeded", a succeeded part stands, the
// roll replays, and a skill of the linked roll is used up for later rounds.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { importSheet, startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

const CHALLENGER = 'sasha';
const OPPONENT = 'mike';
const DISPATCHER = 'dee';

/**
 * A seed whose three D100s (Kat's, then Troy's two parts) are: Kat ≥ 40 (beats Troy's highest aptitude), Handgun
 * Handling ≥ 37 (beats Kat's CQC 37), Driving 37–46 (beats 37 bare, fails with −10).
 */
const DICE = (() => {
  for (let index = 0; ; index++) {
    const seed = `contest-linked-${index}`;
    const rng = seededRng(seed);
    const [kat, handgun, driving] = [rollD100(rng), rollD100(rng), rollD100(rng)];
    if (kat.value >= 40 && handgun.value >= 37 && driving.value >= 37 && driving.value < 47) return { seed, kat, handgun, driving };
  }
})();

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await startTestSandbox({ seeds: Array.from({ length: 100 }, () => DICE.seed) });
  await importSheet(sandbox, CHALLENGER, { name: 'Kat', skills: [{ name: 'CQC', level: 37 }, { name: 'Climbing', level: 50 }], archetypes: [{ name: 'Acuity', modifier: 5 }], conditions: [] });
  await importSheet(sandbox, OPPONENT, {
    name: 'Troy',
    skills: [
      { name: 'CQC', level: 40 },
      { name: 'Handgun Handling', level: 40 },
      { name: 'Driving', level: 30 },
      { name: 'Athletics', level: 30 },
      { name: 'A1', level: 1 },
      { name: 'A2', level: 2 },
      { name: 'A3', level: 3 },
    ],
    archetypes: [{ name: 'Grit', modifier: 10 }],
    conditions: [],
  });
});
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

interface Contest {
  id: string;
  message: string;
}


function press(contest: Contest, user: string, verb: string, arg?: string, roles?: string[]): Promise<SandboxResponse> {
  return sandbox.one({ user, button: `contest:${verb}:${contest.id}${arg ? `:${arg}` : ''}`, message: contest.message, ...(roles ? { roles } : {}) });
}

function pick(contest: Contest, user: string, side: 'challenger' | 'opponent', skill: string): Promise<SandboxResponse> {
  return sandbox.one({ user, select: `contest:skill:${contest.id}:${side}`, values: [skill], message: contest.message });
}

type AdjustFields = Partial<Record<'challenger_skill' | 'opponent_skill' | 'challenger_archetypes' | 'opponent_archetypes' | 'modifiers', string>>;

function adjustForm(contest: Contest, fields: AdjustFields): SandboxInteractionRequest {
  return {
    user: DISPATCHER,
    roles: ['dispatcher'],
    modal: `contest:adjustform:${contest.id}`,
    fields: { challenger_skill: '', opponent_skill: '', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, 0', ...fields },
    message: contest.message,
  };
}

async function adjust(contest: Contest, fields: AdjustFields): Promise<SandboxResponse> {
  expect((await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher'])).kind).toBe('modal');
  return sandbox.one(adjustForm(contest, fields));
}

/** Kat (CQC) against Troy (CQC), at the skills step, both skills picked. */
async function toSkills(roles: ['attacker' | 'defender', 'attacker' | 'defender']): Promise<Contest> {
  const opening = await sandbox.one({ user: CHALLENGER, command: 'contest start', options: { opponent: OPPONENT, intent: 'Kat stops the van', stakes: 'Troy crashes the car' } });
  const contest = { id: /Contest #(\d+)/.exec(textOf(opening))![1]!, message: opening.messageId! };
  await press(contest, OPPONENT, 'accept');
  await sandbox.one({ user: OPPONENT, modal: `contest:acceptform:${contest.id}`, fields: { stakes: 'Troy shoots Kat’s tyre', operator: 'Troy' }, message: contest.message });
  await press(contest, CHALLENGER, 'agree');
  await press(contest, CHALLENGER, 'role', roles[0]);
  await press(contest, OPPONENT, 'role', roles[1]);
  await pick(contest, CHALLENGER, 'challenger', 'CQC');
  await pick(contest, OPPONENT, 'opponent', 'CQC');
  return contest;
}

function shownText(contest: Contest): string {
  return textOf(sandbox.fake.message(contest.message)!);
}

function menuOf(contest: Contest, side: 'challenger' | 'opponent') {
  const rows = sandbox.fake.message(contest.message)!.components as Array<{ components: Array<{ custom_id?: string; disabled?: boolean; options?: Array<{ value: string }> }> }>;
  return rows.flatMap((row) => row.components).find((component) => component.custom_id === `contest:skill:${contest.id}:${side}`);
}

function menuValues(contest: Contest, side: 'challenger' | 'opponent'): string[] {
  return menuOf(contest, side)?.options?.map((option) => option.value) ?? [];
}

/** Refused privately with `reason`; the contest message does not change. */
async function expectRefused(contest: Contest, request: SandboxInteractionRequest, reason: string): Promise<void> {
  const before = JSON.stringify(sandbox.fake.message(contest.message));
  const refusal = await sandbox.one(request);
  expect(refusal).toMatchObject({ kind: 'reply', ephemeral: true });
  expect(refusal.content).toContain(reason);
  expect(JSON.stringify(sandbox.fake.message(contest.message))).toBe(before);
}

const dice = (d: { tens: number; ones: number; value: number }) => `\`[${d.tens}][${d.ones}] → ${d.value}\``;

describe('the Dispatcher decides a Linked Challenge Roll should be made instead', () => {
  it('Troy must shoot and drive: each part is shown and rolled, 1 of 2 succeeded fails his roll, Kat wins, and the part he succeeded stands', async () => {
    const contest = await toSkills(['attacker', 'defender']);
    await press(contest, CHALLENGER, 'ready');

    const linked = textOf(await adjust(contest, { opponent_skill: 'Handgun Handling +Grit; Driving -10' }));
    expect(linked).toContain("dee made Troy's roll a linked roll: CQC 40 → Handgun Handling 40 + Driving 30");
    expect(linked).toContain("**Linked roll** (set by the Dispatcher): one D100 per skill, each against Kat's aptitude; it succeeds only if every part does.\n1. **Handgun Handling 40** adds + 10 Grit\n2. **Driving 30** adds − 10 situational\nHighest aptitude **40**: the CL of Kat's roll");
    expect(linked).toContain("**CQC 37**: the CL of Troy's roll");
    // Exact odds: Kat needs 40 (61 faces); Troy's parts need 37: Handgun 27+ with Grit (74 faces), Driving 47+ with
    // −10 (54 faces). Troy succeeds in 74 × 54 = 3996 of 10 000 ways; Kat wins 61 × 6004 = 366 244 of 10^6 ways.
    expect(linked).toContain('Odds for these choices\nKat wins **36.6244%** · Troy wins **63.3756%** · tie **0%**');
    // The change un-readied Kat: both must press Ready again.
    expect(linked).not.toContain('✅ ready');
    // The form opens prefilled with the linked roll as written; sent back unchanged it changes nothing.
    const form = await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher']);
    expect(JSON.stringify(form.modal)).toContain('"value":"Handgun Handling +Grit; Driving -10"');
    await expectRefused(contest, adjustForm(contest, { challenger_skill: 'CQC', opponent_skill: 'handgun handling +grit; driving -10' }), 'Nothing to change');
    // Troy's own menu is greyed out: the Dispatcher's choice stands (the engine refuses a pick too).
    expect(menuOf(contest, 'opponent')?.disabled).toBe(true);
    expect(menuOf(contest, 'challenger')?.disabled ?? false).toBe(false);

    const first = await press(contest, OPPONENT, 'ready');
    expect(textOf(first)).toContain('✅ ready');
    expect(textOf(first)).not.toContain('Kat wins.');
    const result = textOf(await press(contest, CHALLENGER, 'ready'));
    expect(result).toContain(`Kat (attacker): CQC 37\n🎲 ${dice(DICE.kat)}\n${DICE.kat.value} (D100) = **${DICE.kat.value}** vs CL 40 → ✅ success`);
    expect(result).toContain(
      [
        'Troy (defender): linked roll: Handgun Handling 40 + Driving 30',
        `1. **Handgun Handling 40** 🎲 ${dice(DICE.handgun)}`,
        `${DICE.handgun.value} (D100) + 10 Grit = **${DICE.handgun.value + 10}** vs CL 37 → ✅ success`,
        `2. **Driving 30** 🎲 ${dice(DICE.driving)}`,
        `${DICE.driving.value} (D100) − 10 situational = **${DICE.driving.value - 10}** vs CL 37 → ❌ failure`,
        '**1 of 2 succeeded** → ❌ failure (a linked roll succeeds only if every part does)',
      ].join('\n'),
    );
    expect(result).toContain("🏆 **Kat wins.** Troy suffers Kat's stated outcome:\n> Troy crashes the car");
    expect(result).toContain("Troy's linked roll failed, but **Handgun Handling** succeeded: that part stands, exactly as described.");

    // The round's roll replays with the same three dice, and the log names both of Troy's skills.
    const rollId = /rolls (\w{8})/.exec(result)![1]!;
    const replay = textOf(await sandbox.one({ user: 'eve', command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain(`Roll ${rollId}: the dice match`);
    expect(replay).toContain('Opponent (defender): linked roll: Handgun Handling 40 + Driving 30');
    expect(replay).toContain('**1 of 2 succeeded**');
    const log = textOf(await sandbox.one({ user: CHALLENGER, command: 'log' }));
    expect(log).toContain('CQC 37 vs Handgun Handling 40 + Driving 30');
  });

  it('two attackers tie with a linked side: its skills are all used, not offered in the next round, and refused in a new linked roll', async () => {
    const contest = await toSkills(['attacker', 'attacker']);
    await adjust(contest, { opponent_skill: 'Handgun Handling; Driving' });
    await press(contest, CHALLENGER, 'ready');
    const tied = textOf(await press(contest, OPPONENT, 'ready'));
    expect(tied).toContain('**2 of 2 succeeded** → ✅ success');
    expect(tied).toContain('🤝 **Tie** between two attackers.');
    await press(contest, CHALLENGER, 'again');
    await press(contest, OPPONENT, 'again');
    expect(menuValues(contest, 'opponent').sort()).toEqual(['A1', 'A2', 'A3', 'Athletics', 'CQC']);
    await expectRefused(contest, adjustForm(contest, { opponent_skill: 'Athletics; Driving' }), '**Driving** was already rolled in this contest; pick another skill.');
  });

  it('refuses a linked roll that names a skill twice, one skill, more than 5, a `vs`, a skill not on the sheet, or terms after one skill; nothing changes', async () => {
    const contest = await toSkills(['attacker', 'defender']);
    await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher']);
    const refused = async (opponentSkill: string, reason: string) => expectRefused(contest, adjustForm(contest, { opponent_skill: opponentSkill }), reason);
    await refused('Driving; driving', '**Driving** is named twice in the linked roll; each skill is rolled once.');
    await refused('Driving;', 'A linked roll needs at least two skills separated by `;`');
    await refused('CQC; Driving; Athletics; A1; A2; A3', 'A linked roll in a contest may have at most 5 skills; this one has 6.');
    await refused('Driving vs 50; Athletics', 'In a contest each part’s Challenge Level is the other side’s aptitude: leave out `vs`.');
    await refused('Driving; Juggling', 'Juggling');
    await refused('Driving; Athletics +Charm', 'Charm');
    await refused('Driving +Grit', 'For one skill, use the archetypes field and Situational.');
    await expectRefused(contest, { ...adjustForm(contest, { opponent_skill: 'Driving; Athletics' }), user: OPPONENT, roles: [] }, 'Only a Dispatcher can adjust a contest.');
  });

  it('the odds of three linked skills (four D100s) are exact to 4 decimals and marked ≈; the Dispatcher can turn the linked roll back into one skill', async () => {
    const contest = await toSkills(['attacker', 'defender']);
    const linked = textOf(await adjust(contest, { opponent_skill: 'Handgun Handling; Driving; Athletics' }));
    // Four D100s: Kat needs 40 (61 faces), each of Troy's parts 37 (64 faces): Troy succeeds in 64³ = 262 144 of 10^6
    // ways, Kat wins 61 × 737 856 = 45 009 216 of 10^8 (45.009216 %): past 4 decimals, so rounded, and marked ≈.
    expect(linked).toContain('Odds for these choices\nKat wins **≈45.0092%** · Troy wins **≈54.9908%** · tie **0%**');
    const single = textOf(await adjust(contest, { opponent_skill: 'Athletics' }));
    expect(single).toContain("dee disputed Troy's skill: Handgun Handling 40 + Driving 30 + Athletics 30 → Athletics 30");
    expect(single).toContain('**Athletics 30** (set by the Dispatcher)');
    expect(single).not.toContain('**Linked roll**');
    // Kat needs 30 (71 faces), Troy needs 37 (64): Kat wins 71 × 36 = 2556 of 10 000.
    expect(single).toContain('Kat wins **25.56%**');
    expect(shownText(contest)).toContain('Athletics 30');
  });
});
