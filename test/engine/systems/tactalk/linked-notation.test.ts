import { describe, expect, it } from 'vitest';
import { parseLinkedRoll } from '../../../../src/engine/systems/tactalk/linked-notation.js';

describe('the text of a linked roll', () => {
  it('reads skills, +Archetypes, ±N and vs CL for each part', () => {
    expect(parseLinkedRoll('Handgun Handling +Acuity vs 90; Driving -10 +Reflex Training +5 vs 110')).toEqual([
      { skill: 'Handgun Handling', archetypes: ['Acuity'], situationalModifier: 0, challengeLevel: 90 },
      { skill: 'Driving', archetypes: ['Reflex Training'], situationalModifier: -5, challengeLevel: 110 },
    ]);
  });

  it('keeps a hyphen inside a skill name and accepts new lines between parts', () => {
    expect(parseLinkedRoll('Close-Quarters Combat vs 50\nLock Picking +Acuity +Dexterity vs 70')).toEqual([
      { skill: 'Close-Quarters Combat', archetypes: [], situationalModifier: 0, challengeLevel: 50 },
      { skill: 'Lock Picking', archetypes: ['Acuity', 'Dexterity'], situationalModifier: 0, challengeLevel: 70 },
    ]);
  });

  it('uses the common CL for parts without their own', () => {
    expect(parseLinkedRoll('Climbing; Driving vs 40', 80).map((part) => part.challengeLevel)).toEqual([80, 40]);
  });

  it.each([
    ['Climbing vs 90', /at least two/],
    ['Climbing vs 90; Driving', /part 2 \(`Driving`\): no Challenge Level/],
    ['Climbing vs 90; Driving vs hard', /part 2 .*`vs` must be followed by a Challenge Level/],
    ['Climbing vs 90; +Acuity vs 40', /part 2 .*must start with a skill name/],
    ['Climbing -Acuity vs 90; Driving vs 40', /part 1 .*archetype modifiers are added with `\+Name`/],
    ['Climbing vs 90 +Acuity; Driving vs 40', /part 1 .*must come last/],
  ])('points at the bad part of %j, and shows how a part is written', (text, message) => {
    expect(() => parseLinkedRoll(text)).toThrow(message);
    if (!message.source.startsWith('part')) return;
    expect(() => parseLinkedRoll(text)).toThrow(/A part reads like `Handgun Handling \+Acuity -10 vs 90`; parts are separated by `;`\.$/);
  });

  it('refuses a skill named twice (seed 000: each roll of a linked roll tests a single skill), in any case or spacing', () => {
    expect(() => parseLinkedRoll('Driving vs 100; Driving vs 120')).toThrow('**Driving** is named twice in the linked roll; each skill is rolled once. Parts 1 and 2 test the same skill, and each part of a linked roll tests a different one');
    expect(() => parseLinkedRoll('Close  Combat vs 50; Driving vs 60; close combat +Acuity vs 70')).toThrow('**Close Combat** is named twice in the linked roll; each skill is rolled once. Parts 1 and 3 test the same skill');
    expect(parseLinkedRoll('Driving vs 100; Driving Fast vs 120').map((part) => part.skill)).toEqual(['Driving', 'Driving Fast']);
  });

  it('limits the number of parts and the length', () => {
    expect(() => parseLinkedRoll(Array.from({ length: 11 }, () => 'Climbing vs 50').join(';'))).toThrow(/at most 10 parts/);
    expect(() => parseLinkedRoll(`${'x'.repeat(1001)} vs 5; a vs 5`)).toThrow(/at most 1000 characters/);
  });
});
