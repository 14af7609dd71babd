// The welcome: posted once per server after its first command, never again (not for a race, not after a restart),
// and never in the way of the command's own answer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestSandbox, stopChecked, textOf, type TestSandbox } from '../helpers/sandbox.js';
import { captureBotLog } from '../helpers/bot-log.js';

const WELCOME = 'Tac Talk Bot is here.';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  const current = sandbox;
  sandbox = undefined;
  await stopChecked(current);
});

async function welcomed(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  sandbox = await startTestSandbox({ welcome: true, ...options });
  return sandbox;
}

/**
 * Waits for the channel to show `count` welcomes: the welcome follows the answer, so an interaction may look done
 * (quiet) just before it arrives on a busy machine.
 */
async function expectWelcomes(s: TestSandbox, count: number, channelId = s.fake.channelId): Promise<void> {
  await vi.waitFor(() => expect(welcomesIn(s, channelId)).toHaveLength(count), { timeout: 5000 });
}

/** The welcomes in a channel (the default guild's by default), as everyone there sees them. */
function welcomesIn(s: TestSandbox, channelId = s.fake.channelId): string[] {
  return s.fake.messages(channelId).map((message) => message.content ?? '').filter((content) => content.includes(WELCOME));
}

describe('the welcome', () => {
  it('follows the first command of a server, after its answer, in public, pinging nobody, and says where to start', async () => {
    const s = await welcomed();
    const first = await s.act({ user: 'mike', command: 'roll dice', options: { expression: '2d6', label: 'Troy' } });
    await expectWelcomes(s, 1);
    // The notation library's first load may defer the answer: what counts is that the welcome comes after it.
    const answers = s.fake.answersTo(first.id)!.responses.filter((response) => response.kind !== 'deferred');
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({ ephemeral: false });
    expect(textOf(answers[0]!)).toContain('Troy');
    const welcome = answers[1]!;
    expect(welcome).toMatchObject({ kind: 'followup', ephemeral: false, allowedMentions: { parse: [] } });
    expect(welcome.content).toContain('👋 **Tac Talk Bot is here.** `/help` shows what it does and how to start.');
    // Every step a new player needs before the example roll can succeed: the sheet, a skill on it, the roll.
    expect(welcome.content).toContain('Make your character with `/sheet create name:Troy`, add a skill with `/sheet skill set name:Climbing level:40`, then roll: `/roll challenge skill:Climbing cl:90`');
    expect(welcome.content).toContain('`/config dispatcher-role`');

    // The second command, by anyone, is answered alone.
    await s.one({ user: 'sasha', command: 'help' });
    await s.one({ user: 'mike', command: 'roll dice', options: { expression: '1d20' } });
    expect(welcomesIn(s)).toHaveLength(1);
    expect((await s.bot.store.servers.settings(s.fake.guildId)).welcomedAt).not.toBeNull();
  });

  it('after /help as the first command, is one line for the rest of the table: it does not repeat the steps /help just showed', async () => {
    const s = await welcomed();
    const help = await s.act({ user: 'mike', command: 'help' });
    await expectWelcomes(s, 1);
    const [answer, welcome] = s.fake.answersTo(help.id)!.responses;
    expect(answer).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(textOf(answer!)).toContain('/sheet create name:Troy');
    expect(welcome).toMatchObject({ kind: 'followup', ephemeral: false, allowedMentions: { parse: [] } });
    expect(welcome!.content).toBe('👋 **Tac Talk Bot is here.** Each of you can type `/help`: it shows you, privately, what the bot does and how to start.');
  });

  it('after /help about one command, says where to start in full: that answer showed no first steps', async () => {
    const s = await welcomed();
    const help = await s.act({ user: 'mike', command: 'help', options: { command: 'roll dice' } });
    await expectWelcomes(s, 1);
    const welcome = s.fake.answersTo(help.id)!.responses[1]!;
    expect(welcome.content).toContain('Make your character with `/sheet create name:Troy`');
  });

  it('follows an ephemeral answer or a refusal too, and the answer stays private', async () => {
    const s = await welcomed();
    const refused = await s.act({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    await expectWelcomes(s, 1);
    const [answer, welcome] = s.fake.answersTo(refused.id)!.responses;
    expect(answer).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(answer!.content).toContain('⚠️');
    expect(welcome).toMatchObject({ kind: 'followup', ephemeral: false });
  });

  it('two first commands at the same moment post one welcome', async () => {
    const s = await welcomed();
    await Promise.all([
      s.act({ user: 'mike', command: 'help' }),
      s.act({ user: 'sasha', command: 'help', options: { command: 'roll dice' } }),
      s.act({ user: 'dee', command: 'help' }),
    ]);
    await expectWelcomes(s, 1);
    await s.one({ user: 'mike', command: 'help' });
    expect(welcomesIn(s)).toHaveLength(1);
  });

  it('is not posted again after a restart of the bot, nor of the whole sandbox on the same database', async () => {
    const s = await welcomed();
    await s.act({ user: 'mike', command: 'help' });
    await expectWelcomes(s, 1);
    await s.restartBot();
    await s.one({ user: 'mike', command: 'help' });
    expect(welcomesIn(s)).toHaveLength(1);

    const { databaseUrl } = s;
    await s.stop();
    sandbox = undefined;
    const again = await welcomed({ databaseUrl });
    await again.one({ user: 'sasha', command: 'help' });
    expect(welcomesIn(again)).toEqual([]);
  });

  it('each server gets its own, once', async () => {
    const s = await welcomed();
    await s.act({ user: 'mike', command: 'help' });
    await expectWelcomes(s, 1);
    const other = s.fake.guild('Other');
    await s.act({ user: 'mike', guild: 'Other', command: 'help' });
    await expectWelcomes(s, 1, other.channelId);
    await s.one({ user: 'sasha', guild: 'Other', command: 'help' });
    await s.one({ user: 'sasha', command: 'help' });
    expect(welcomesIn(s, other.channelId)).toHaveLength(1);
    expect(welcomesIn(s)).toHaveLength(1);
  });

  it("a failed welcome never breaks the command's answer: it is logged, and the server is not welcomed twice", async () => {
    const capture = captureBotLog();
    const s = await welcomed({ log: capture.logger });
    vi.spyOn(s.bot.store.servers, 'claimWelcome').mockRejectedValueOnce(new Error('the database is busy'));
    const answer = await s.one({ user: 'mike', command: 'roll dice', options: { expression: '2d6', label: 'Troy' } });
    expect(textOf(answer)).toContain('Troy');
    await vi.waitFor(() => expect(capture.problems.map((line) => line.msg)).toContain('the welcome was not posted'));
    expect(welcomesIn(s)).toEqual([]);
  });

  it('is not posted by the tests that count answers (startTestSandbox leaves it off unless asked)', async () => {
    sandbox = await startTestSandbox();
    await sandbox.one({ user: 'mike', command: 'help' });
    expect(welcomesIn(sandbox)).toEqual([]);
  });
});
