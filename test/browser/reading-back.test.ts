// Reading back up a long channel on the sandbox page, in Chromium: a message naming a player the page has not met makes
// it learn their name and draw the channel again, and the reader must stay where they were reading, not be thrown to the end.
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, useBrowserPages } from '../helpers/browser.js';

describe.skipIf(!HAVE_CHROMIUM && !process.env.CI)('reading back up the channel on the sandbox page', () => {
  const pages = useBrowserPages();

  it("keeps a reader's place when a call for a roll names a player the page has not met", async () => {
    const sandbox = await pages.startSandbox({});
    for (let i = 0; i < 30; i++) await sandbox.act({ user: 'mike', command: 'roll dice', options: { expression: '1d20' } });
    const { page, problems } = await pages.open(sandbox.url, { viewport: { width: 1280, height: 700 }, reducedMotion: 'reduce' });
    const list = page.locator('#messages');
    await page.locator('#messages .message', { hasText: '1d20' }).nth(29).waitFor();
    const ends = () => list.evaluate((el) => ({ top: el.scrollTop, bottom: el.scrollHeight - el.clientHeight }));
    expect((await ends()).bottom, 'the channel is longer than the window').toBeGreaterThan(1000);
    await list.evaluate((el) => (el.scrollTop = 200));

    // A Dispatcher calls for a roll from a player the page has never seen: the call names them, so the page learns
    // who they are and draws the channel again.
    await sandbox.one({ user: 'zed', command: 'sheet create', options: { name: 'Zed' } });
    await sandbox.one({ user: 'zed', command: 'sheet skill set', options: { name: 'Stealth', level: 30 } });
    await sandbox.act({ user: 'dee', roles: ['dispatcher'], command: 'dispatch challenge', options: { player: 'zed', skill: 'Stealth', cl: 60, intent: 'slip past the guard', outcome: 'inside unseen', consequence: 'the guard turns' } });
    await page.locator('#messages .message', { hasText: '@zed' }).waitFor();

    expect((await ends()).top, 'still where the reader was').toBe(200);
    expect(problems).toEqual([]);
  });
});
