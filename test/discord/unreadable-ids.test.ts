// The router reads a component's custom_id with its command's family (src/views/component-id.ts) before any handler
// runs: an id the command cannot read (a button of an older bot, a forged one) is refused privately, naming the
// command to run again; an id it reads is honoured only from a message that carries it (src/discord/control-origin.ts),
// and then one whose contest or request is gone is the handler's to answer.
import { expect, it } from 'vitest';
import { useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

it.each([
  ['contest:role:1:referee', '/contest'],
  ['contest:accept:1.5', '/contest'],
  ['table:delete:not-a-member', '/table'],
  ['log:newer:1', '/log'],
  ['pool:tiebreak:abcd2345:x', '/pool'],
])('a form sent with the custom_id "%s" is refused privately: run %s again', async (customId, command) => {
  // A form needs no message to come from, so any id can be sent as a modified client would.
  const response = await sandbox().one({ user: 'eve', modal: customId, fields: {} });
  expect(response).toMatchObject({ kind: 'reply', ephemeral: true });
  expect(response.content).toContain('older version of the bot');
  expect(response.content).toContain(`\`${command}\``);
  expect(sandbox().fake.messages()).toEqual([]);
});

it('a form of a feature the bot does not have is refused privately', async () => {
  const response = await sandbox().one({ user: 'eve', modal: 'nobody:form:1', fields: {} });
  expect(response).toMatchObject({ kind: 'reply', ephemeral: true });
  expect(response.content).toContain('no longer exists');
});

it('a readable form id sent from no message is refused as not its message\'s, not as an old button', async () => {
  const response = await sandbox().one({ user: 'eve', modal: 'contest:acceptform:99', fields: { stakes: 'x' } });
  expect(response).toMatchObject({ kind: 'reply', ephemeral: true });
  expect(response.content).toContain('This form does not belong to the message it was sent from');
  expect(response.content).not.toContain('older version of the bot');
});
