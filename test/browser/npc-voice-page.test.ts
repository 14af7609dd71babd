// The sandbox page draws an NPC's line as Discord does: under the NPC's name and picture, tagged APP, not under the
// bot's name; two NPCs speaking one after the other are two authors, though both speak through one webhook.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, CHROMIUM, HAVE_CHROMIUM, useBrowserPages } from '../helpers/browser.js';

if (!HAVE_CHROMIUM && !process.env.CI) {
  console.warn(`Skipping the browser test of NPC voices on the sandbox page: ${CHROMIUM} is missing.`);
}

const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe.skipIf(!HAVE_CHROMIUM && !process.env.CI)('NPC voices on the sandbox page in Chromium', () => {
  const pages = useBrowserPages();

  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    it(`shows each NPC's line under its own name and picture with the APP tag, at ${width} px`, async () => {
      const sandbox = await pages.startSandbox();
      const dispatcher = { user: 'dee', roles: ['dispatcher'] };
      await sandbox.one({ ...dispatcher, command: 'npc create', options: { name: 'Thug', avatar: 'https://example.com/npcs/thug.png' } });
      await sandbox.one({ ...dispatcher, command: 'npc create', options: { name: 'Boss' } });
      await sandbox.one({ ...dispatcher, command: 'npc say', options: { npc: 'Thug', text: 'Hands where I can see them.' } });
      await sandbox.one({ ...dispatcher, command: 'npc say', options: { npc: 'Boss', text: 'Let him talk.' } });

      // The picture's host is not reached from here: a one-pixel PNG stands in for it.
      const { page, problems } = await pages.open(sandbox.url, { viewport: { width, height } }, (blank) =>
        blank.route('https://example.com/**', (route) => route.fulfill({ contentType: 'image/png', body: Buffer.from(ONE_PIXEL_PNG, 'base64') })),
      );
      // Seen by a player (on a phone, picking one closes the player list over the channel).
      await page.fill('#user-name', 'mike');
      await page.press('#user-name', 'Enter');
      await page.locator('#messages[data-viewer="mike"]').waitFor();
      if (width < 500) await page.locator('#sidebar').waitFor({ state: 'hidden' });

      const thug = page.locator('#messages .message[data-author="Thug"]');
      await thug.waitFor();
      await expect.poll(() => thug.locator('.message-header .author').textContent()).toBe('Thug');
      expect(await thug.locator('.app-tag').textContent()).toContain('APP');
      expect(await thug.locator('img.avatar').getAttribute('src')).toBe('https://example.com/npcs/thug.png');
      expect(await thug.locator('.content').textContent()).toContain('Hands where I can see them.');

      const boss = page.locator('#messages .message[data-author="Boss"]');
      await boss.waitFor();
      // A new author: its own header, not folded under Thug's.
      expect(await boss.locator('.message-header .author').textContent()).toBe('Boss');
      expect(await boss.locator('img.avatar').count()).toBe(0);
      expect(await page.locator(`#messages .message[data-author="${sandbox.bot.client.user!.username}"]`).count()).toBe(0);
      expect(problems).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `npc-voices-${width}.png`) });
    });
  }
});
