// What an NPC's roll or line showed in the channel: it is posted through the channel's webhook under the NPC's name,
// and the one who made it is told so privately (src/discord/npc-voice.ts).
import { expect } from 'vitest';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import type { FakeMessage } from '../../src/sandbox/types.js';
import type { TestSandbox } from './sandbox.js';

/** The message `answer`'s NPC roll or line was posted as: the channel's latest webhook message under `name`. */
export function postedAs(sandbox: TestSandbox, answer: SandboxResponse, name: string): FakeMessage {
  expect(answer).toMatchObject({ kind: 'reply', ephemeral: true, content: `Posted in this channel as **${name}**.` });
  const posted = sandbox.fake.messages().filter((message) => message.webhook?.username === name);
  expect(posted.length, `a message posted as ${name}`).toBeGreaterThan(0);
  return posted.at(-1)!;
}
