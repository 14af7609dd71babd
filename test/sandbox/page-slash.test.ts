// The sandbox page's reading of typed slash commands (src/sandbox/page/slash.ts: no DOM, so tested here).
import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/sandbox/page/api.js';
import { autocompleteOptions, buildRequest, contextAt, leafCommands, matchingLeaves, parse } from '../../src/sandbox/page/slash.js';

const commands: Command[] = [
  {
    name: 'roll',
    description: 'Rolls',
    options: [
      {
        type: 1,
        name: 'challenge',
        description: 'A challenge roll',
        options: [
          { type: 3, name: 'skill', description: 'The skill', required: true, autocomplete: true },
          { type: 4, name: 'cl', description: 'The CL', required: true, min_value: 0, max_value: 200 },
          { type: 5, name: 'force', description: 'Force' },
          { type: 6, name: 'target', description: 'Who' },
          { type: 11, name: 'notes', description: 'A file' },
        ],
      },
    ],
  },
  { name: 'table', description: 'Tables', options: [{ type: 1, name: 'export', description: 'Export', options: [{ type: 3, name: 'format', description: 'Format', choices: [{ name: 'JSON', value: 'json' }, { name: 'CSV', value: 'csv' }] }] }] },
  { name: 'log', description: 'The log' },
  { name: 'Report', description: '', type: 3 },
];
const leaves = leafCommands(commands);

describe('the page’s slash commands', () => {
  it('lists chat-input commands and subcommands as leaves, and finds them by name or word', () => {
    expect(leaves.map((l) => l.path)).toEqual(['roll challenge', 'table export', 'log']);
    expect(matchingLeaves('ro', leaves).map((l) => l.path)).toEqual(['roll challenge']);
    expect(matchingLeaves('exp', leaves).map((l) => l.path)).toEqual(['table export']);
    expect(matchingLeaves('', leaves)).toHaveLength(3);
  });

  it('reads options as name:value, values running to the next option', () => {
    const parsed = parse('/roll  challenge skill:Shotgun Handling (35) cl:90', leaves);
    expect(parsed.leaf?.path).toBe('roll challenge');
    expect(parsed.tokens.map((t) => [t.option.name, t.value])).toEqual([['skill', 'Shotgun Handling (35)'], ['cl', '90']]);
    expect(parse('/rolls challenge', leaves).leaf).toBeUndefined();
  });

  it('knows what the caret is on', () => {
    expect(contextAt('/roll cha', 9, leaves)).toMatchObject({ kind: 'command', typed: 'roll cha' });
    expect(contextAt('/roll challenge', 15, leaves)).toMatchObject({ kind: 'command' });
    expect(contextAt('/roll challenge sk', 18, leaves)).toMatchObject({ kind: 'name', partial: 'sk', start: 16 });
    const value = contextAt('/roll challenge skill:Cl cl:9', 24, leaves);
    expect(value).toMatchObject({ kind: 'value', typed: 'Cl', token: { option: { name: 'skill' } } });
    expect(contextAt('hello', 5, leaves)).toEqual({ kind: 'none' });
  });

  it('builds the sandbox request, converting types, choices and picked suggestions', () => {
    expect(buildRequest('/roll challenge skill:Climbing cl:90 force:true target:@mike', leaves)).toEqual({
      command: 'roll challenge',
      options: { skill: 'Climbing', cl: 90, force: true, target: 'mike' },
    });
    const picked = new Map([['skill', { name: 'Shotgun Handling (35)', value: 'Shotgun Handling' }]]);
    expect(buildRequest('/roll challenge skill:Shotgun Handling (35) cl:5', leaves, { picked })).toMatchObject({ options: { skill: 'Shotgun Handling' } });
    expect(buildRequest('/table export format:csv', leaves)).toEqual({ command: 'table export', options: { format: 'csv' } });
    expect(buildRequest('/table export format:CSV', leaves)).toEqual({ command: 'table export', options: { format: 'csv' } });
    expect(buildRequest('/log', leaves)).toEqual({ command: 'log', options: {} });
    const files = new Map([['notes', { filename: 'a.txt', base64: 'aGk=' }]]);
    expect(buildRequest('/roll challenge skill:x cl:1 notes:a.txt', leaves, { files })).toMatchObject({ options: { notes: { filename: 'a.txt' } } });
  });

  it('refuses what Discord would not send: missing required options, bad numbers, unknown choices, stray text', () => {
    expect(buildRequest('/roll challenge skill:Climbing', leaves)).toEqual({ error: 'Missing required option: cl' });
    expect(buildRequest('/roll challenge', leaves)).toEqual({ error: 'Missing required options: skill, cl' });
    expect(buildRequest('/roll challenge skill:x cl:ninety', leaves)).toEqual({ error: 'cl: expected a whole number, got “ninety”' });
    expect(buildRequest('/roll challenge skill:x cl:300', leaves)).toEqual({ error: 'cl: at most 200' });
    expect(buildRequest('/roll challenge skill:x cl:1 force:maybe', leaves)).toEqual({ error: 'force: expected True or False, got “maybe”' });
    expect(buildRequest('/table export format:xml', leaves)).toEqual({ error: 'format: choose one of JSON, CSV' });
    expect(buildRequest('/roll challenge please skill:x cl:1', leaves)).toEqual({ error: 'Unexpected “please”: give options as name:value.' });
    expect(buildRequest('/roll challenge skill:x cl:1 notes:a.txt', leaves)).toMatchObject({ error: expect.stringContaining('notes: choose a file') });
    expect(buildRequest('/nope', leaves)).toMatchObject({ error: expect.stringContaining('Unknown command /nope') });
    expect(buildRequest('hello', leaves)).toMatchObject({ error: expect.stringContaining('slash commands only') });
  });

  it('sends what is typed so far for autocomplete, the focused option as typed', () => {
    const text = '/roll challenge cl:12 skill:Cl';
    const ctx = contextAt(text, text.length, leaves);
    if (ctx.kind !== 'value') throw new Error('expected a value context');
    expect(autocompleteOptions(ctx.parsed, ctx.token, ctx.typed)).toEqual({ cl: 12, skill: 'Cl' });
  });
});
