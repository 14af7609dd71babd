// A blind roll played on the sandbox page in Chromium, at 1280 and 390 px: the player types it and sees that it was
// made and nothing of its result; their Show me is refused; a Dispatcher's Show me shows the result to them alone, and
// Reveal puts it in the channel for all. Each run refreshes test/artifacts/blind-<width>-*.png.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Page } from 'playwright-core';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { ARTIFACTS, HAVE_CHROMIUM, scrollIntoView, useBrowserPages } from '../helpers/browser.js';

const SEED = 'blind-page-0';
const STEALTH = 45;
const CL = 77;

describe.skipIf(!HAVE_CHROMIUM && !process.env.CI)('a blind roll on the sandbox page', () => {
  const pages = useBrowserPages();

  const drawer = (page: Page) => page.locator('#sidebar');

  /** Plays as `name` (a Dispatcher or not): on a phone through the top bar's player chip and its drawer. */
  async function playAs(page: Page, name: string, phone: boolean, dispatcher: boolean): Promise<void> {
    if (phone && !(await drawer(page).isVisible())) await page.tap('#me-chip');
    const chip = page.locator(`.player[data-user="${name}"]`);
    if (await chip.count()) await chip.click();
    else {
      await page.fill('#user-name', name);
      await page.press('#user-name', 'Enter');
    }
    await page.locator(`#messages[data-viewer="${name}"]`).waitFor();
    if (phone) {
      await drawer(page).waitFor({ state: 'hidden' });
      await page.tap('#me-chip');
    }
    if ((await page.isChecked('#user-dispatcher')) !== dispatcher) await page.locator('#user-dispatcher').click();
    expect(await page.isChecked('#user-dispatcher')).toBe(dispatcher);
    if (phone) {
      await page.tap('#drawer-close');
      await drawer(page).waitFor({ state: 'hidden' });
    }
  }

  const message = (page: Page, text: string | RegExp) => page.locator('#messages .message', { hasText: text });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`a player rolls blind, sees no number; a Dispatcher reads and reveals it, at ${viewport.width} px`, async () => {
      const sandbox = await pages.startSandbox({ seeds: [SEED] });
      await sandbox.one({ user: 'kat', command: 'sheet create', options: { name: 'Kat' } });
      await sandbox.one({ user: 'kat', command: 'sheet skill set', options: { name: 'Stealth', level: STEALTH } });
      const total = rollD100(seededRng(SEED)).value + STEALTH;
      const phone = viewport.width < 500;
      // Its uncaught errors are checked once the roll has been played and revealed, not on load.
      const { page, problems } = await pages.open(sandbox.url, { viewport, reducedMotion: 'reduce', ...(phone ? { isMobile: true, hasTouch: true } : {}) });
      const shoot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `blind-${viewport.width}-${name}.png`) });

      await playAs(page, 'kat', phone, false);
      await page.fill('#composer', `/roll challenge skill:Stealth cl:${CL} blind:True`);
      await page.press('#composer', 'Enter');
      const blind = message(page, 'made a blind Stealth roll');
      await blind.waitFor();
      const shown = (await blind.textContent()) ?? '';
      expect(shown).toContain('its result is for the Dispatchers');
      expect(shown).not.toMatch(new RegExp(`\\b(${total}|${CL})\\b|success|failure|Chance`));
      await page.mouse.move(1, 1);
      await shoot('player');

      // The player's own Show me: refused, to them alone.
      await blind.locator('button', { hasText: 'Show me' }).click();
      await message(page, 'Only a Dispatcher can see the result of a blind roll').waitFor();

      await playAs(page, 'dee', phone, true);
      await blind.locator('button', { hasText: 'Show me' }).click();
      const result = page.locator('#messages .message.ephemeral', { hasText: `Stealth vs CL ${CL}` });
      await result.waitFor();
      expect(await result.textContent()).toContain(`= ${total}`);
      await scrollIntoView(result);
      await page.mouse.move(1, 1);
      await shoot('dispatcher-show-me');

      await blind.locator('button', { hasText: 'Reveal' }).click();
      const revealed = message(page, 'revealed the blind roll').filter({ hasNot: page.locator('.ephemeral') });
      await revealed.first().waitFor();

      // Back to the player: the Dispatcher's private answer is gone from view, the reveal is there for all.
      await playAs(page, 'kat', phone, false);
      const forAll = page.locator('#messages .message:not(.ephemeral)', { hasText: 'revealed the blind roll' });
      await forAll.waitFor();
      expect(await forAll.textContent()).toContain(`Stealth vs CL ${CL}`);
      expect(await blind.textContent()).toContain('Revealed by');
      expect(await page.locator('#messages .message.ephemeral', { hasText: 'Chance of success' }).count()).toBe(0);
      await scrollIntoView(forAll);
      await page.mouse.move(1, 1);
      await shoot('revealed');
      expect(problems).toEqual([]);
    });
  }
});
