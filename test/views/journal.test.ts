// The journal's text, pure: each roll's one line (what the verifier renders anew), the proof's embedding, user text
// kept as text in both files, and the byte bound.
import { describe, expect, it } from 'vitest';
import { JOURNAL_PROOF_HTML_ID, type JournalProofRoll } from '../../src/engine/commitment.js';
import type { JournalEntry } from '../../src/engine/journal.js';
import { journalDocuments, journalProofHtml, journalProofJson, journalProofMarkdown, journalRollLine, type JournalDocumentInput, type JournalRollItem } from '../../src/views/journal.js';

const AT = new Date('2026-11-27T19:30:00Z');

function proofRoll(overrides: Partial<JournalProofRoll> = {}): JournalProofRoll {
  return { id: 'k3m9x2ab', kind: 'challenge', system: 'tactalk', inputs: {}, seed: 'c3-12-00', sessionId: 3, seedIndex: 12, dice: { tens: 6, ones: 2 }, total: 107, success: true, createdAt: AT.toISOString(), ...overrides };
}

function rollItem(index: number, overrides: Partial<JournalRollItem> = {}): JournalRollItem {
  const roll = proofRoll({ id: `roll${String(index).padStart(4, '0')}`, createdAt: new Date(AT.getTime() + index).toISOString() });
  return { ...roll, createdAt: new Date(AT.getTime() + index), userId: '1', npc: null, secret: false, ...overrides };
}

function note(id: number, text: string, at = AT): JournalEntry {
  return { id, kind: 'note', guildId: 'g', channelId: 'c', userId: '1', details: { text }, rollId: null, secret: false, createdAt: at };
}

function input(overrides: Partial<JournalDocumentInput> = {}): JournalDocumentInput {
  return {
    guildId: 'g',
    serverName: 'The Table',
    from: new Date(AT.getTime() - 3_600_000),
    to: new Date(AT.getTime() + 3_600_000),
    spanWords: 'Since today',
    untilOption: '',
    entries: [],
    rolls: [],
    sessions: [],
    names: new Map([['1', 'Mike']]),
    includeSecret: false,
    madeAt: AT,
    ...overrides,
  };
}

describe('journalRollLine', () => {
  it('a challenge: its D100 with both dice, total, verdict and seed number', () => {
    expect(journalRollLine(proofRoll())).toBe('roll k3m9x2ab · challenge · D100 62 (6, 2) · total 107 · success · seed 12 of session 3');
    expect(journalRollLine(proofRoll({ dice: { tens: 0, ones: 0 }, total: 100, success: false }))).toBe('roll k3m9x2ab · challenge · D100 100 (0, 0) · total 100 · failure · seed 12 of session 3');
  });

  it('any other dice as they fell, parts in brackets; no total or verdict when the roll has none; a seed of its own in full', () => {
    const linked = proofRoll({ kind: 'linked', dice: [{ tens: 1, ones: 5 }, null], total: null, success: null, sessionId: null, seedIndex: null, seed: 'a1b2c3' });
    expect(journalRollLine(linked)).toBe('roll k3m9x2ab · linked · dice [D100 15 (1, 5), none] · seed a1b2c3');
    const notation = proofRoll({ kind: 'dice', dice: [[3, 4], [6]], total: 13, success: null });
    expect(journalRollLine(notation)).toBe('roll k3m9x2ab · dice · dice [[3, 4], [6]] · total 13 · seed 12 of session 3');
    const code = proofRoll({ kind: 'code', dice: { roll: [4, 2], boosts: [], opponent: null }, total: 6, success: true });
    expect(journalRollLine(code)).toBe('roll k3m9x2ab · code · dice roll [4, 2]; boosts []; opponent none · total 6 · success · seed 12 of session 3');
  });

  it('a die changed changes the line', () => {
    expect(journalRollLine(proofRoll({ dice: { tens: 6, ones: 3 } }))).not.toBe(journalRollLine(proofRoll()));
  });
});

describe('the proof', () => {
  it('is JSON that cannot close its fence or its script element, and reads back unchanged', () => {
    const proof = { format: 'tactalk-journal/1' as const, guildId: 'g', sessions: [], rolls: [proofRoll({ inputs: { label: '</script><b>```&' } })] };
    const json = journalProofJson(proof);
    expect(json).not.toMatch(/[<>&`]/);
    expect(JSON.parse(json)).toEqual(proof);
    expect(journalProofMarkdown(proof)).toBe(`\`\`\`json tactalk-journal-proof\n${json}\n\`\`\`\n`);
    expect(journalProofHtml(proof)).toBe(`<script type="application/json" id="${JOURNAL_PROOF_HTML_ID}">\n${json}\n</script>\n`);
  });
});

describe('journalDocuments', () => {
  it('keeps user text as text: escaped in Markdown, HTML-escaped in the page, on one line', () => {
    const { markdown, html } = journalDocuments(input({ entries: [note(1, '<script>alert(1)</script> **bold**\n# heading')] }));
    expect(markdown).toContain('Mike notes: <script>alert(1)</script> \\*\\*bold\\*\\* # heading');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; **bold** # heading');
    expect(html).not.toContain('<script>alert');
  });

  it('interleaves entries and rolls by time, an entry first at the same moment', () => {
    const { markdown } = journalDocuments(input({ entries: [note(1, 'same', AT), note(2, 'after', new Date(AT.getTime() + 5))], rolls: [rollItem(0), rollItem(3)] }));
    const lines = markdown.split('\n').filter((line) => line.startsWith('- **'));
    expect(lines.map((line) => (line.includes('notes:') ? line.split('notes: ')[1] : line.split('`')[1]!.slice(5, 13)))).toEqual(['same', 'roll0000', 'roll0003', 'after']);
  });

  it('stops at the byte bound, says where and how to go on, and keeps each file under it', () => {
    const rolls = Array.from({ length: 400 }, (_, index) => rollItem(index, { inputs: { padding: 'x'.repeat(400) } }));
    const maxFileBytes = 200_000;
    const documents = journalDocuments(input({ rolls, maxFileBytes, untilOption: ' until:2026-11-27T21:00:00.000Z' }));
    expect(documents.cut?.reason).toBe('bytes');
    expect(documents.shown).toBeLessThan(400);
    expect(documents.shown).toBeGreaterThan(100);
    expect(Buffer.byteLength(documents.markdown)).toBeLessThanOrEqual(maxFileBytes);
    expect(Buffer.byteLength(documents.html)).toBeLessThanOrEqual(maxFileBytes);
    const next = rolls[documents.shown]!.createdAt.toISOString();
    expect(documents.markdown).toContain(`For the rest: /journal export since:${next} until:2026-11-27T21:00:00.000Z`);
  });

  it('stops at the item bound', () => {
    const documents = journalDocuments(input({ rolls: Array.from({ length: 12 }, (_, index) => rollItem(index)), maxItems: 10 }));
    expect(documents).toMatchObject({ shown: 10, cut: { reason: 'items', since: rollItem(10).createdAt.toISOString() } });
    expect(documents.markdown).toContain('one export holds at most 10 entries');
  });

  it('says when nothing happened, and names the file by the span’s end day', () => {
    const documents = journalDocuments(input());
    expect(documents.markdown).toContain('Nothing happened in this span.');
    expect(documents.baseName).toBe('journal-2026-11-27');
    expect(documents.cut).toBeNull();
  });
});
