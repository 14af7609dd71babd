// The words of commit and reveal: a roll's seed note (footers), a session's name, and the posts of /session.
import { describe, expect, it } from 'vitest';
import { commitmentOf, derivedSeed } from '../../src/engine/commitment.js';
import { noteRollSeed, noteSeed } from '../../src/store/seed-notes.js';
import type { PlaySessionView } from '../../src/store/sessions.js';
import { rollFooter } from '../../src/views/challenge.js';
import { rollSeedNote, sessionClosedReply, sessionName, sessionOpenedReply } from '../../src/views/sessions.js';

const SECRET = 'a'.repeat(64);

function session(overrides: Partial<PlaySessionView> = {}): PlaySessionView {
  return { id: 3, guildId: 'g', kind: 'play', day: null, title: 'The *docks* heist', commitment: commitmentOf(SECRET), secret: null, channelId: 'c', openedBy: 'dee', openedAt: new Date('2026-11-27T20:00:00Z'), closedAt: null, ...overrides };
}

describe("a roll's seed note", () => {
  it("says the seed's number and session, with the day's commitment on a day session's first roll; nothing for a seed of its own", () => {
    const first = derivedSeed(SECRET, { sessionId: 3, seedIndex: 0 });
    noteSeed(first, { sessionId: 3, seedIndex: 0, dayCommitment: commitmentOf(SECRET) });
    noteRollSeed('firstrol', first);
    expect(rollSeedNote('firstrol')).toBe(` · seed 0 of session 3 · today's session commits to SHA-256 ${commitmentOf(SECRET)} (see /session show)`);
    // A derived seed not handed out in this process still names its origin, from the seed itself.
    noteRollSeed('later234', derivedSeed(SECRET, { sessionId: 3, seedIndex: 12 }));
    expect(rollSeedNote('later234')).toBe(' · seed 12 of session 3');
    expect(rollFooter('later234')).toBe('Roll later234 · check it with /roll replay id:later234 · seed 12 of session 3');
    noteRollSeed('ownseed2', '0123456789abcdef');
    expect(rollSeedNote('ownseed2')).toBe('');
    expect(rollFooter('ownseed2')).toBe('Roll ownseed2 · check it with /roll replay id:ownseed2');
  });
});

describe('the posts of /session', () => {
  it('names a session by its title, escaped, or by its day', () => {
    expect(sessionName(session())).toBe('session 3 “The \\*docks\\* heist”');
    expect(sessionName(session({ kind: 'day', day: '2026-11-27', title: '' }))).toBe('session 3 (the day 2026-11-27, UTC)');
  });

  it('opening posts the commitment; a session closed by it shows its secret; closing shows the secret and the check', () => {
    const opened = JSON.stringify(sessionOpenedReply(session(), session({ id: 2, kind: 'day', day: '2026-11-27', secret: SECRET, closedAt: new Date() })));
    expect(opened).toContain(commitmentOf(SECRET));
    expect(opened).toContain(SECRET);
    const closed = sessionClosedReply(session({ secret: SECRET, closedAt: new Date() }), 1, '📜 The journal of session 1: 1 entry');
    expect(closed.allowedMentions).toEqual({ parse: [] });
    expect(JSON.stringify(closed)).toContain('1 roll was made from its seeds');
    expect(JSON.stringify(closed)).toContain('npx tsx src/verify-journal.ts <journal file>');
    expect(closed.content).toBe('📜 The journal of session 1: 1 entry');
  });
});
