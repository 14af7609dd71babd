// /log: the server's roll log, paged with buttons, through the real bot and the fake Discord.
import { describe, expect, it } from 'vitest';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { postedAs } from '../helpers/npc-voice.js';

const sandbox = useTestSandbox();

const NO_PINGS = { parse: [] };

interface Button {
  custom_id: string;
  label: string;
  disabled?: boolean;
}

function buttons(response: SandboxResponse): { previous: Button; next: Button } {
  const [previous, next] = (response.components[0] as { components: Button[] }).components;
  return { previous: previous!, next: next! };
}

/** The roll ids a log page lists, in order. */
function idsOf(response: SandboxResponse): string[] {
  return [...textOf(response).matchAll(/^`(\w{8})`/gm)].map((match) => match[1]!);
}

/** A roll with the level given outright (no sheet needed); returns its id. */
async function roll(user: string, skill = 'Climbing', cl = 150): Promise<string> {
  const reply = await sandbox().one({ user, command: 'roll challenge', options: { skill, cl, level: 60 } });
  return /Roll (\w{8})/.exec(textOf(reply))![1]!;
}

async function press(user: string, button: Button, page: SandboxResponse, extra: Partial<SandboxInteractionRequest> = {}): Promise<SandboxResponse> {
  expect(button.disabled ?? false, button.custom_id).toBe(false);
  return sandbox().one({ user, button: button.custom_id, message: page.messageId!, ...extra });
}

describe('/log', () => {
  it('lists the rolls newest first, privately: id, who, what and the result, with the replay hint', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Handgun Handling', level: 50 } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
    const challenge = await roll('mike', 'Handgun Handling', 120);
    const linkedReply = await sandbox().one({ user: 'mike', command: 'roll linked', options: { rolls: 'Handgun Handling vs 90; Driving vs 120' } });
    const linked = /Roll (\w{8})/.exec(textOf(linkedReply))![1]!;
    await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'npc create', options: { name: 'Thug' } });
    const npcReply = await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'roll challenge', options: { npc: 'Thug', skill: 'Brawling', level: 30, cl: 100 } });
    const npc = /Roll (\w{8})/.exec(textOf(postedAs(sandbox(), npcReply, 'Thug')))![1]!;

    const log = await sandbox().one({ user: 'sasha', command: 'log' });
    expect(log).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(idsOf(log)).toEqual([npc, linked, challenge]);
    const text = textOf(log);
    const mike = sandbox().fake.user('mike').id;
    const dee = sandbox().fake.user('dee').id;
    expect(text).toContain('Rolls in this server, newest first:');
    expect(text).toMatch(new RegExp(`^\`${challenge}\` <t:\\d+:R> <@${mike}> · Handgun Handling 60 vs CL 120 → \\*\\*\\d+\\*\\*, (success|failure)$`, 'm'));
    expect(text).toMatch(new RegExp(`^\`${linked}\` .* <@${mike}> · linked: Handgun Handling vs 90; Driving vs 120 → \\*\\*[01] of 2\\*\\* succeeded$`, 'm'));
    expect(text).toMatch(new RegExp(`^\`${npc}\` .* <@${dee}> as \\*\\*Thug\\*\\* · Brawling 30 vs CL 100 → `, 'm'));
    expect(text).toContain('Any roll can be replayed by its id: /roll replay id:<id>');
    const { previous, next } = buttons(log);
    expect(previous.disabled).toBe(true);
    expect(next.disabled).toBe(true);

    const mikes = await sandbox().one({ user: 'sasha', command: 'log', options: { user: 'mike' } });
    expect(idsOf(mikes)).toEqual([linked, challenge]);
    expect(textOf(mikes)).toContain(`Rolls by <@${mike}>, newest first:`);
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'log', options: { user: 'sasha' } }))).toContain('No rolls here yet.');
  });

  it('pages ten at a time with Previous and Next, carrying the filter; only its viewer may page it', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 23; index++) ids.push(await roll(index % 4 === 3 ? 'sasha' : 'mike'));
    const newestFirst = [...ids].reverse();

    const first = await sandbox().one({ user: 'mike', command: 'log' });
    expect(idsOf(first)).toEqual(newestFirst.slice(0, 10));
    expect(textOf(first)).toContain('Roll log · page 1');
    for (const button of [buttons(first).previous, buttons(first).next]) expect(button.custom_id.length).toBeLessThanOrEqual(100);

    // Someone else pressing Next is refused privately, and the page stays as it is.
    const intruder = await sandbox().one({ user: 'sasha', button: buttons(first).next.custom_id, message: first.messageId! });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(intruder.content).toContain('Only the member who ran this `/log` can page it');
    expect(idsOf({ ...first, ...sandbox().fake.message(first.messageId!) } as SandboxResponse)).toEqual(newestFirst.slice(0, 10));

    const second = await press('mike', buttons(first).next, first);
    expect(second).toMatchObject({ kind: 'update' });
    expect(idsOf(second)).toEqual(newestFirst.slice(10, 20));
    expect(textOf(second)).toContain('page 2');
    const third = await press('mike', buttons(second).next, second);
    expect(idsOf(third)).toEqual(newestFirst.slice(20));
    expect(buttons(third).next.disabled).toBe(true);
    const backToSecond = await press('mike', buttons(third).previous, third);
    expect(idsOf(backToSecond)).toEqual(newestFirst.slice(10, 20));
    const backToFirst = await press('mike', buttons(backToSecond).previous, backToSecond);
    expect(idsOf(backToFirst)).toEqual(newestFirst.slice(0, 10));
    expect(buttons(backToFirst).previous.disabled).toBe(true);

    // The filter and the count travel with the buttons.
    const sashas = ids.filter((_, index) => index % 4 === 3).reverse();
    const filtered = await sandbox().one({ user: 'mike', command: 'log', options: { user: 'sasha' } });
    expect(idsOf(filtered)).toEqual(sashas);
    expect(buttons(filtered).next.disabled).toBe(true);
    const mikes = ids.filter((_, index) => index % 4 !== 3).reverse();
    const mikesFirst = await sandbox().one({ user: 'mike', command: 'log', options: { user: 'mike' } });
    expect(idsOf(await press('mike', buttons(mikesFirst).next, mikesFirst))).toEqual(mikes.slice(10));
    const capped = await sandbox().one({ user: 'mike', command: 'log', options: { count: 12 } });
    expect(textOf(capped)).toContain('(the latest 12)');
    const cappedSecond = await press('mike', buttons(capped).next, capped);
    expect(idsOf(cappedSecond)).toEqual(newestFirst.slice(10, 12));
    expect(buttons(cappedSecond).next.disabled).toBe(true);
  });

  it('hides a secret roll from players ("secret roll by a Dispatcher") and shows it to Dispatchers', async () => {
    const open = await roll('mike');
    await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'npc create', options: { name: 'Mole' } });
    const secretReply = await sandbox().one({
      user: 'dee',
      roles: ['dispatcher'],
      command: 'roll challenge',
      options: { npc: 'Mole', skill: 'Lying', level: 40, cl: 120, secret: true },
    });
    expect(secretReply.ephemeral).toBe(true);
    const secret = /Roll (\w{8})/.exec(textOf(secretReply))![1]!;

    const forPlayer = await sandbox().one({ user: 'mike', command: 'log' });
    expect(idsOf(forPlayer)).toEqual([secret, open]);
    const playerText = textOf(forPlayer);
    expect(playerText).toMatch(new RegExp(`^\`${secret}\` <t:\\d+:R> 🤫 secret roll by a Dispatcher$`, 'm'));
    expect(playerText).not.toContain('Mole');
    expect(playerText).not.toContain('Lying');

    const forDispatcher = textOf(await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'log' }));
    expect(forDispatcher).toMatch(new RegExp(`^\`${secret}\` <t:\\d+:R> 🤫 <@\\d+> as \\*\\*Mole\\*\\* · Lying 40 vs CL 120 → \\*\\*\\d+\\*\\*`, 'm'));

    // Filtering by the Dispatcher does not reveal it either.
    expect(textOf(await sandbox().one({ user: 'mike', command: 'log', options: { user: 'dee' } }))).toContain('secret roll by a Dispatcher');
  });

  it('lists a declined roll request among the rolls by when it was declined, marked as not a roll, on exactly one page', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    const before = await roll('sasha');
    const asked = await sandbox().act({
      user: 'dee',
      roles: ['dispatcher'],
      command: 'dispatch challenge',
      options: { player: 'mike', skill: 'Climbing', cl: 170, hidden: true, intent: 'climb the drainpipe', outcome: 'Troy is on the roof' },
    });
    const post = asked.responses.find((response) => !response.ephemeral)!;
    const requestId = /#(\d+)/.exec(textOf(post))![1]!;
    // Declining updates the request and says so in a short notice below it.
    await sandbox().act({ user: 'mike', button: `dispatch:decline:${requestId}`, message: post.messageId! });
    const after: string[] = [];
    for (let index = 0; index < 10; index++) after.push(await roll('sasha'));

    const mike = sandbox().fake.user('mike').id;
    const declined = new RegExp(`^🙅 \\*not a roll\\* <t:\\d+:R> <@${mike}> as \\*\\*Troy\\*\\* declined request #${requestId}: Climbing vs a hidden CL to climb the drainpipe$`, 'm');
    const first = await sandbox().one({ user: 'mike', command: 'log' });
    expect(idsOf(first)).toEqual([...after].reverse());
    expect(textOf(first)).not.toMatch(declined);
    const second = await press('mike', buttons(first).next, first);
    expect(idsOf(second)).toEqual([before]);
    expect(textOf(second)).toMatch(declined);
    // Newest first: the decline above the roll made before it.
    expect(textOf(second).indexOf('declined request')).toBeLessThan(textOf(second).indexOf(`\`${before}\``));
    // As a number of its own: a timestamp (<t:…>) or a roll id may hold the digits.
    expect(textOf(second)).not.toMatch(/\b170\b/);
    expect(textOf(second)).toContain('🙅 marks a roll the player declined: nothing was rolled.');

    // Filtered by player: only that player's declines.
    expect(textOf(await sandbox().one({ user: 'mike', command: 'log', options: { user: 'mike' } }))).toMatch(declined);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'log', options: { user: 'sasha', count: 1 } }))).not.toContain('declined');
  });
});
