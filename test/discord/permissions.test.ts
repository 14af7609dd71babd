import { describe, expect, it } from 'vitest';
import { meetsDispatcherRule, type MemberFacts } from '../../src/discord/permissions.js';
import type { DispatcherRule } from '../../src/store/servers.js';
import { dispatcherOnlyText, dispatcherRequirement, dispatcherRuleText } from '../../src/views/permissions.js';

const member = (facts: Partial<MemberFacts>): MemberFacts => ({ roleIds: [], roleNames: [], managesServer: false, ...facts });
const byDefault: DispatcherRule = { kind: 'default' };
const gameMaster: DispatcherRule = { kind: 'role', roleId: 'gm', roleName: 'Game Master' };

describe('who is a Dispatcher', () => {
  it('with no role set: a role named Dispatcher (any case, trimmed) or Manage Server, nothing else', () => {
    expect(meetsDispatcherRule(member({ roleIds: ['d'], roleNames: [' DISPATCHER '] }), byDefault)).toBe(true);
    expect(meetsDispatcherRule(member({ managesServer: true }), byDefault)).toBe(true);
    expect(meetsDispatcherRule(member({ roleIds: ['gm'], roleNames: ['Game Master'] }), byDefault)).toBe(false);
    expect(meetsDispatcherRule(member({}), byDefault)).toBe(false);
  });

  it('with a role set: its members only; neither the Dispatcher name nor Manage Server count any more', () => {
    expect(meetsDispatcherRule(member({ roleIds: ['gm'], roleNames: ['Game Master'] }), gameMaster)).toBe(true);
    expect(meetsDispatcherRule(member({ roleIds: ['d'], roleNames: ['Dispatcher'] }), gameMaster)).toBe(false);
    expect(meetsDispatcherRule(member({ managesServer: true }), gameMaster)).toBe(false);
  });
});

describe('a Dispatcher-only refusal', () => {
  it("names the server's role by name (never a ping), or the default rule, and how a member with Manage Server changes it", () => {
    expect(dispatcherOnlyText('create NPCs', gameMaster)).toBe(
      'Only a Dispatcher can create NPCs. Here a Dispatcher has the @Game Master role; a member with Manage Server can change that with `/config dispatcher-role`.',
    );
    expect(dispatcherOnlyText('force a roll', byDefault, 'Leave `force` out.')).toBe(
      'Only a Dispatcher can force a roll. Here a Dispatcher has a role named @Dispatcher or the Manage Server permission; a member with Manage Server can pick one role instead with `/config dispatcher-role`. Leave `force` out.',
    );
    expect(dispatcherRequirement({ kind: 'role', roleId: 'x', roleName: null })).toBe(
      'The Dispatcher role set here no longer exists; a member with Manage Server can pick another with `/config dispatcher-role`.',
    );
    expect(dispatcherRuleText({ kind: 'role', roleId: 'x', roleName: '*GM*' })).toBe('the @\\*GM\\* role');
    expect(dispatcherRuleText({ kind: 'role', roleId: 'x', roleName: null })).toContain('no longer exists');
  });
});
