// Seed 000, "Resolving Contests": the Dispatcher may dispute a player's skill "if they believe … a Linked Challenge
// Roll should be made instead". Through the fake Discord: the Dispatcher's adjust form turns Troy's roll into a linked
// roll (Handgun Handling and Driving, the seed's own linked example), the message shows its parts and each side's exact
// chance, both players confirm again (Troy with Confirm, Kat by agreeing), the result shows each part and "N of M
// succeeded", a succeeded part stands, the roll replays, and a skill of the linked roll is used up for later rounds.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { contestAdjustForm, type AdjustFields, type PlayedContest } from '../helpers/contest-play.js';
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

type Contest = PlayedContest;


/** A press and everything it answered: the contest message first, then any new message (a prompt, the result). */
async function pressAll(contest: Contest, user: string, verb: string, arg?: string, roles?: string[]): Promise<SandboxResponse[]> {
  return (await sandbox.act({ user, button: `contest:${verb}:${contest.id}${arg ? `:${arg}` : ''}`, message: contest.message, ...(roles ? { roles } : {}) })).responses;
}

async function press(contest: Contest, user: string, verb: string, arg?: string, roles?: string[]): Promise<SandboxResponse> {
  return (await pressAll(contest, user, verb, arg, roles))[0]!;
}

/** The Dispatcher's form, opened and sent: the contest message as it now stands. */
async function adjust(contest: Contest, fields: AdjustFields): Promise<SandboxResponse> {
  expect((await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher'])).kind).toBe('modal');
  return (await sandbox.act(contestAdjustForm(DISPATCHER, contest, fields))).responses[0]!;
}

/** Kat (CQC, with /contest start) against Troy (CQC, in the Accept form): both skills known, Kat still to agree. */
async function toChosen(roles: ['attacker' | 'defender', 'attacker' | 'defender']): Promise<Contest> {
  const opening = await sandbox.one({ user: CHALLENGER, command: 'contest start', options: { opponent: OPPONENT, intent: 'Kat stops the van', stakes: 'Troy crashes the car', skill: 'CQC', role: roles[0] } });
  const contest = { id: /Contest #(\d+)/.exec(textOf(opening))![1]!, message: opening.messageId! };
  await press(contest, OPPONENT, 'accept');
  await sandbox.act({ user: OPPONENT, modal: `contest:acceptform:${contest.id}`, fields: { stakes: 'Troy shoots Kat’s tyre', role: roles[1], skill: 'CQC', archetypes: '' }, message: contest.message });
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
    const contest = await toChosen(['attacker', 'defender']);

    const linked = textOf(await adjust(contest, { opponent_skill: 'Handgun Handling +Grit; Driving -10' }));
    expect(linked).toContain("dee made Troy's roll a linked roll: CQC 40 → Handgun Handling 40 + Driving 30");
    expect(linked).toContain("**Linked roll** (set by the Dispatcher): one D100 per skill, each against Kat's aptitude; it succeeds only if every part does.\n1. **Handgun Handling 40** adds + 10 Grit\n2. **Driving 30** adds − 10 situational\nHighest aptitude **40**: the CL of Kat's roll");
    expect(linked).toContain("**CQC 37**: the CL of Troy's roll");
    // Exact chances (the roles are secret until the roll, so not who wins): Kat needs 40 (61 faces); Troy's parts need
    // 37: Handgun 27+ with Grit (74 faces), Driving 47+ with −10 (54 faces): 74 × 54 = 3996 of 10 000 ways.
    expect(linked).toContain("Kat's roll succeeds **61%** · Troy's **39.96%**");
    // The change cleared Troy's confirmation (his form): both confirm again.
    expect(linked).toContain("both confirm again, Kat by agreeing (Troy had confirmed)");
    expect(linked).not.toContain('✅ confirmed');
    // The form opens prefilled with the linked roll as written; sent back unchanged it changes nothing.
    const form = await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher']);
    expect(JSON.stringify(form.modal)).toContain('"value":"Handgun Handling +Grit; Driving -10"');
    await expectRefused(contest, contestAdjustForm(DISPATCHER, contest, { challenger_skill: 'CQC', opponent_skill: 'handgun handling +grit; driving -10' }), 'Nothing to change');

    const [first] = await pressAll(contest, OPPONENT, 'ready');
    expect(textOf(first!)).toContain('✅ confirmed');
    expect(textOf(first!)).not.toContain('Kat wins.');
    const [, posted] = await pressAll(contest, CHALLENGER, 'agree');
    const result = textOf(posted!);
    expect(result).toContain(`Kat (attacker): CQC\n🎲 ${dice(DICE.kat)}\n${DICE.kat.value} (D100) = **${DICE.kat.value}** vs CL 40 (Troy's Handgun Handling) → ✅ success`);
    expect(result).toContain(
      [
        'Troy (defender): linked roll: Handgun Handling + Driving',
        `1. **Handgun Handling** 🎲 ${dice(DICE.handgun)}`,
        `${DICE.handgun.value} (D100) + 10 Grit = **${DICE.handgun.value + 10}** vs CL 37 (Kat's CQC) → ✅ success`,
        `2. **Driving** 🎲 ${dice(DICE.driving)}`,
        `${DICE.driving.value} (D100) − 10 situational = **${DICE.driving.value - 10}** vs CL 37 (Kat's CQC) → ❌ failure`,
        '**1 of 2 succeeded** → ❌ failure (a linked roll succeeds only if every part does)',
      ].join('\n'),
    );
    expect(result).toContain("🏆 **Kat wins.** Kat succeeded and Troy failed.\nTroy suffers Kat's stated outcome:\n> Troy crashes the car");
    expect(result).toContain("Troy's linked roll failed, but **Handgun Handling** succeeded: that part stands, exactly as described.");

    // The round's roll replays with the same three dice, and the log names both of Troy's skills.
    const rollId = / · roll (\w{8}) · /.exec(result)![1]!;
    const replay = textOf(await sandbox.one({ user: 'eve', command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain(`Roll ${rollId}: the dice match`);
    expect(replay).toContain('Troy (defender): linked roll: Handgun Handling + Driving');
    expect(replay).toContain('**1 of 2 succeeded**');
    // Each CL is named as the other side's skill, as on the result (the roll keeps the Operators' names).
    expect(replay).toContain(`${DICE.kat.value} (D100) = **${DICE.kat.value}** vs CL 40 (Troy's Handgun Handling) → ✅ success`);
    expect(replay).toContain(`${DICE.driving.value} (D100) − 10 situational = **${DICE.driving.value - 10}** vs CL 37 (Kat's CQC) → ❌ failure`);
    expect(replay).toContain('Winner\nKat');
    const log = textOf(await sandbox.one({ user: CHALLENGER, command: 'log' }));
    expect(log).toContain('CQC 37 vs Handgun Handling 40 + Driving 30');
  });

  it('two attackers tie with a linked side: its skills are all used, not offered in the next round, and refused in a new linked roll', async () => {
    const contest = await toChosen(['attacker', 'attacker']);
    await adjust(contest, { opponent_skill: 'Handgun Handling; Driving' });
    await press(contest, OPPONENT, 'ready');
    const tied = textOf((await pressAll(contest, CHALLENGER, 'agree'))[1]!);
    expect(tied).toContain('**2 of 2 succeeded** → ✅ success');
    expect(tied).toContain('🤝 Both succeeded and both are attackers: a tie.');
    await press(contest, CHALLENGER, 'again');
    await press(contest, OPPONENT, 'again');
    expect(menuValues(contest, 'opponent').sort()).toEqual(['A1', 'A2', 'A3', 'Athletics', 'CQC']);
    await expectRefused(contest, contestAdjustForm(DISPATCHER, contest, { opponent_skill: 'Athletics; Driving' }), '**Driving** was already rolled in this contest; pick another skill.');
  });

  it('refuses a linked roll that names a skill twice, one skill, more than 5, a `vs`, a skill not on the sheet, or terms after one skill; nothing changes', async () => {
    const contest = await toChosen(['attacker', 'defender']);
    await press(contest, DISPATCHER, 'adjust', undefined, ['dispatcher']);
    const refused = async (opponentSkill: string, reason: string) => expectRefused(contest, contestAdjustForm(DISPATCHER, contest, { opponent_skill: opponentSkill }), reason);
    await refused('Driving; driving', '**Driving** is named twice in the linked roll; each skill is rolled once.');
    await refused('Driving;', 'A linked roll needs at least two skills separated by `;`');
    await refused('CQC; Driving; Athletics; A1; A2; A3', 'A linked roll in a contest may have at most 5 skills; this one has 6.');
    await refused('Driving vs 50; Athletics', 'In a contest each part’s Challenge Level is the other side’s aptitude: leave out `vs`.');
    await refused('Driving; Juggling', 'Juggling');
    await refused('Driving; Athletics +Charm', 'Charm');
    await refused('Driving +Grit', 'For one skill, use the archetypes field and Situational.');
    await expectRefused(contest, { ...contestAdjustForm(DISPATCHER, contest, { opponent_skill: 'Driving; Athletics' }), user: OPPONENT, roles: [] }, 'Only a Dispatcher can adjust a contest.');
  });

  it('the chance of four linked skills is exact to 4 decimals and marked ≈ when longer; the Dispatcher can turn the linked roll back into one skill', async () => {
    const contest = await toChosen(['attacker', 'defender']);
    const three = textOf(await adjust(contest, { opponent_skill: 'Handgun Handling; Driving; Athletics' }));
    // Kat needs 40 (61 faces), each of Troy's parts 37 (64 faces): Troy succeeds in 64³ = 262 144 of 10^6 ways, exact.
    expect(three).toContain("Kat's roll succeeds **61%** · Troy's **26.2144%**");
    // Four parts: 64⁴ = 16 777 216 of 10^8 (16.777216 %): past 4 decimals, so rounded, and marked ≈.
    const linked = textOf(await adjust(contest, { opponent_skill: 'Handgun Handling; Driving; Athletics; A1' }));
    expect(linked).toContain("Kat's roll succeeds **61%** · Troy's **≈16.7772%**");
    const single = textOf(await adjust(contest, { opponent_skill: 'Athletics' }));
    expect(single).toContain("dee disputed Troy's skill: Handgun Handling 40 + Driving 30 + Athletics 30 + A1 1 → Athletics 30");
    expect(single).toContain('**Athletics 30** (set by the Dispatcher)');
    expect(single).not.toContain('**Linked roll**');
    // Kat needs 30 (71 faces), Troy needs 37 (64).
    expect(single).toContain("Kat's roll succeeds **71%** · Troy's **64%**");
    expect(shownText(contest)).toContain('Athletics 30');
  });
});
