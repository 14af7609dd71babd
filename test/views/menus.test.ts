// What the context menus read off a message: the roll ids it shows, and the note it becomes in the journal.
import { describe, expect, it } from 'vitest';
import { journalNoteOf, rollIdsShown } from '../../src/views/menus.js';

describe('rollIdsShown', () => {
  it('reads a roll’s footer, a contest’s and a tracker’s lists, in the order shown, each once', () => {
    expect(rollIdsShown({ content: '', embeds: [{ footer: { text: 'Roll jw2r63nc · check it with /roll replay id:jw2r63nc' } }] })).toEqual(['jw2r63nc']);
    expect(rollIdsShown({ content: '', embeds: [{ footer: { text: 'Contest #4 · rolls ab2cd3ef, gh4jk5mn · check with /roll replay' } }] })).toEqual(['ab2cd3ef', 'gh4jk5mn']);
    expect(rollIdsShown({ content: '', embeds: [{ description: 'roll qn7nrsuc: 8', footer: { text: 'Initiative #1 · rolls zz9yy8xx · check one with /roll replay' } }] })).toEqual(['zz9yy8xx', 'qn7nrsuc']);
  });

  it('takes no word of other letters, lengths or joined to others: 0, 1, i, l and o are never in an id', () => {
    expect(rollIdsShown({ content: 'Contested rollover dispatch abcdefgh1 ab-cdefgh xabcdefgh', embeds: [{ footer: { text: 'Request #12' } }] })).toEqual([]);
    expect(rollIdsShown({ content: 'roll0ver', embeds: [] })).toEqual([]);
  });
});

describe('journalNoteOf', () => {
  it('is the author and the words, else the embeds’ titles and texts; null with nothing; cut to its limit', () => {
    expect(journalNoteOf({ author: 'Kat', content: ' Troy kicks the door in. ', embeds: [] }, 100)).toBe('Kat: Troy kicks the door in.');
    expect(journalNoteOf({ author: 'Tac Talk Bot', content: '', embeds: [{ title: 'CQC vs CL 60: success', description: 'Troy' }] }, 100)).toBe('Tac Talk Bot: **CQC vs CL 60: success**\nTroy');
    expect(journalNoteOf({ author: 'Kat', content: '', embeds: [{}] }, 100)).toBeNull();
    const long = journalNoteOf({ author: 'Kat', content: 'x'.repeat(500), embeds: [] }, 50)!;
    expect(long).toHaveLength(50);
    expect(long.endsWith('…')).toBe(true);
  });
});
