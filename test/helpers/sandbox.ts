import { afterEach, beforeEach, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { startSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import type { BotCommand } from '../../src/discord/command.js';
import { MessageFlags } from 'discord.js';
import type { FakeDiscord, SandboxInteractionRequest, SandboxInteractionResult, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { freshDatabaseUrl } from './database.js';
import { rollIdOf } from '../../src/store/rolls.js';

export interface TestSandbox extends Sandbox {
  databaseUrl: string;
  /**
   * Acts as a user and returns everything the bot answered, once the bot says it is done with the interaction (never
   * after a guessed quiet period); fails the test on any Discord rule the bot broke.
   */
  act(request: SandboxInteractionRequest): Promise<SandboxInteractionResult>;
  /** Acts and returns the one response the bot gave. */
  one(request: SandboxInteractionRequest): Promise<SandboxResponse>;
}

/** The fake Discord and the real bot on a fresh database; seeds come from `seeds` in order when given. */
export async function startTestSandbox(
  options: {
    seeds?: string[];
    databaseUrl?: string;
    now?: () => Date;
    /** The bot's logger; default a pino at TEST_LOG_LEVEL (silent). Pass one to inspect what the bot logs. */
    log?: Logger;
    /**
     * Post the bot's one-time welcome after a server's first command (default false: it would be one more answer to
     * every test's first interaction, which `one` counts); test/e2e/welcome.test.ts turns it on.
     */
    welcome?: boolean;
    /** Commands the bot serves beside its own (test/fixtures/toy-command.ts). */
    extraCommands?: BotCommand[];
    /** The bot's own seeds, derived from each server's open session (commit and reveal) instead of `seeds`. */
    committedSeeds?: boolean;
  } = {},
): Promise<TestSandbox> {
  const databaseUrl = options.databaseUrl ?? freshDatabaseUrl();
  const seeds = [...(options.seeds ?? [])];
  let counter = 0;
  let secrets = 0;
  let rollIds = 0;
  const sandbox = await startSandbox({
    port: 0,
    databaseUrl,
    migrate: false,
    log: options.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...(options.committedSeeds ? {} : { newSeed: () => seeds.shift() ?? `test-seed-${counter++}` }),
    // Sessions' secrets are fixed too, so a run gives the same commitments twice (the fuzz's reproducibility).
    newSessionSecret: () => createHash('sha256').update(`test-session-secret-${secrets++}`).digest('hex'),
    // Roll ids too (8 of the ids' letters, from a hash of a counter): a prefix typed at random matches alike twice.
    newRollId: () => rollIdOf(createHash('sha256').update(`test-roll-${rollIds++}`).digest()),
    ...(options.now ? { now: options.now } : {}),
    welcome: options.welcome ?? false,
    ...(options.extraCommands ? { extraCommands: options.extraCommands } : {}),
  });
  const act = async (request: SandboxInteractionRequest) => {
    const result = await sandbox.fake.interact(request);
    expect(result.errors, `Discord rules broken by ${JSON.stringify(request)}`).toEqual([]);
    return result;
  };
  return Object.assign(sandbox, {
    databaseUrl,
    act,
    async one(request: SandboxInteractionRequest) {
      const result = await act(request);
      expect(result.responses, `responses to ${JSON.stringify(request)}`).toHaveLength(1);
      return result.responses[0]!;
    },
  });
}

/** Everything a response or message shows as text: content, embed titles, descriptions, fields and footers. */
export function textOf(response: Pick<SandboxResponse, 'content' | 'embeds'>): string {
  const embeds = (response.embeds as Array<Record<string, unknown>>).map((embed) =>
    [
      embed.title,
      embed.description,
      ...((embed.fields as Array<{ name: string; value: string }> | undefined) ?? []).flatMap((field) => [field.name, field.value]),
      (embed.footer as { text?: string } | undefined)?.text,
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return [response.content ?? '', ...embeds].join('\n');
}

/**
 * A fresh sandbox for every test of the file, stopped after it; each test must leave the fake Discord with no
 * broken rule and no unimplemented request. Returns a getter for the current sandbox.
 */
export function useTestSandbox(options: Parameters<typeof startTestSandbox>[0] = {}): () => TestSandbox {
  let sandbox: TestSandbox | undefined;
  beforeEach(async () => {
    sandbox = await startTestSandbox(options);
  });
  afterEach(async () => {
    const current = sandbox;
    sandbox = undefined;
    await stopChecked(current);
  });
  return () => {
    if (!sandbox) throw new Error('the sandbox runs only inside a test');
    return sandbox;
  };
}

/** Imports a sheet file as `user` (their new active sheet), through the real `/sheet import`. */
export async function importSheet(sandbox: Pick<TestSandbox, 'one'>, user: string, sheet: object): Promise<void> {
  const imported = await sandbox.one({ user, command: 'sheet import', options: { file: { filename: 'sheet.json', content: JSON.stringify(sheet) } } });
  expect(imported.content).toContain('Imported');
}

/** Stops a test's sandbox, failing the test if the bot broke a Discord rule or made a request the fake lacks. */
export async function stopChecked(sandbox: TestSandbox | undefined): Promise<void> {
  if (!sandbox) return;
  try {
    expect(sandbox.fake.violations).toEqual([]);
  } finally {
    await sandbox.stop();
  }
}

/**
 * The slash commands whose answer is a deferral still "thinking…" (Discord's Loading flag) right now: a test sees an
 * interaction deferred while its handler still waits (for a lock, say), before interact() resolves.
 */
export function deferredCommands(fake: FakeDiscord): string[] {
  return fake
    .messages(undefined, { includeEphemeral: true })
    .filter((message) => (message.flags & MessageFlags.Loading) !== 0)
    .map((message) => message.interaction?.command ?? '');
}
