// The context-menu commands on the sandbox page in Chromium, as Discord offers them: right-click a message or a player
// in the member list → Apps → the command; without a mouse, the ⋯ beside each; on a phone (390 px, touch) the ⋯ is
// always shown. Screenshots of the Apps menu go to test/artifacts/.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARTIFACTS, CHROMIUM, HAVE_CHROMIUM, useBrowserPages } from '../helpers/browser.js';

if (!HAVE_CHROMIUM && !process.env.CI) {
  console.warn(`Skipping the browser tests of the context menus: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does it).`);
}

describe.skipIf(!HAVE_CHROMIUM && !process.env.CI)('context menus on the sandbox page in Chromium', () => {
  const pages = useBrowserPages();

  async function open(viewport: { width: number; height: number }, phone = false): Promise<Page> {
    const sandbox = await pages.startSandbox();
    const { page, problems } = await pages.open(sandbox.url, { viewport, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
    expect(problems).toEqual([]);
    return page;
  }

  async function playAs(page: Page, name: string): Promise<void> {
    const chip = page.locator(`.player[data-user="${name}"]`);
    if (await chip.count()) await chip.click();
    else {
      if (!(await page.locator('#user-name').isVisible())) await page.click('#me-chip');
      await page.fill('#user-name', name);
      await page.press('#user-name', 'Enter');
    }
    await page.locator(`#messages[data-viewer="${name}"]`).waitFor();
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.fill('#composer', text);
    await page.press('#composer', 'Enter');
    await expect.poll(() => page.inputValue('#composer')).toBe('');
  }

  const message = (page: Page, text: string | RegExp) => page.locator('#messages .message', { hasText: text });
  const appsItems = (page: Page) => page.locator('.apps-menu .apps-item').evaluateAll((items) => items.map((item) => item.textContent ?? ''));

  it('at 1280 px: right-click a roll → Apps → Replay this roll; right-click a player → Show sheet and Challenge to a contest', async () => {
    const page = await open({ width: 1280, height: 900 });
    await playAs(page, 'sasha');
    await send(page, '/sheet create name:Kat');
    await send(page, '/sheet skill set name:CQC level:37');
    await playAs(page, 'mike');
    await send(page, '/sheet create name:Troy');
    await send(page, '/sheet skill set name:CQC level:40');
    await send(page, '/roll challenge skill:CQC cl:60');
    const roll = message(page, 'mike used').filter({ hasText: '/roll challenge' });
    await roll.waitFor();
    const rollId = /Roll (\w{8})/.exec((await roll.textContent()) ?? '')![1]!;

    await roll.click({ button: 'right' });
    await page.locator('.apps-menu').waitFor();
    expect(await page.locator('.apps-menu .apps-title').textContent()).toBe('Apps');
    expect(await appsItems(page)).toEqual(['Replay this roll', 'Add to journal']);
    await page.screenshot({ path: path.join(ARTIFACTS, 'context-menu-message-1280.png') });
    await page.locator('.apps-item', { hasText: 'Replay this roll' }).click();
    await message(page, `Roll ${rollId}: the dice match`).waitFor();
    // As Discord shows it: "mike used Replay this roll", no slash before a context menu's name.
    expect(await page.locator('.reply-context .command-name', { hasText: 'Replay this roll' }).first().textContent()).toBe('Replay this roll');

    await page.locator('.player[data-user="sasha"]').click({ button: 'right' });
    await page.locator('.apps-menu').waitFor();
    expect(await appsItems(page)).toEqual(['Show sheet', 'Challenge to a contest']);
    await page.screenshot({ path: path.join(ARTIFACTS, 'context-menu-member-1280.png') });
    await page.locator('.apps-item', { hasText: 'Show sheet' }).click();
    const shown = message(page, 'Only you can see this').filter({ hasText: 'Kat' });
    await shown.waitFor();
    expect(await shown.textContent()).toContain('CQC');

    // Challenge: the form opens with /contest start's terms; sent, the contest is posted in the channel.
    await page.locator('.player[data-user="sasha"]').click({ button: 'right' });
    await page.locator('.apps-item', { hasText: 'Challenge to a contest' }).click();
    const modal = page.locator('dialog#modal[open]');
    await modal.waitFor();
    expect(await modal.locator('h2').textContent()).toBe('Challenge sasha to a contest');
    await modal.locator('[data-custom-id="intent"]').fill('grab the keys first');
    await modal.locator('[data-custom-id="stakes"]').fill('Kat walks home');
    await modal.locator('select[data-custom-id="role"]').selectOption('attacker');
    await modal.locator('select[data-custom-id="skill"]').selectOption('CQC');
    await page.screenshot({ path: path.join(ARTIFACTS, 'context-menu-challenge-form-1280.png') });
    await modal.locator('button[type="submit"]').click();
    await modal.waitFor({ state: 'hidden' });
    await message(page, /Contest #1/).first().waitFor();
  });

  it('without a mouse: the ⋯ of a message opens Apps, Enter runs the first; Escape closes it', async () => {
    const page = await open({ width: 1280, height: 900 });
    await playAs(page, 'mike');
    await send(page, '/roll dice expression:2d6');
    // The roll's result, not the bot's "thinking" before it: the footer names the roll.
    const roll = message(page, 'mike used').filter({ hasText: '/roll dice' }).filter({ hasText: /Roll \w{8}/ });
    await roll.waitFor();
    const more = roll.locator('.message-apps');
    await more.focus();
    await page.keyboard.press('Enter');
    await page.locator('.apps-menu').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.apps-menu').waitFor({ state: 'detached' });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Replay this roll');
    await page.keyboard.press('Enter');
    await message(page, 'the dice match').waitFor();
  });

  it('at 390 px on a touch screen: every message shows its ⋯; tapping it offers Apps within the screen, and Add to journal answers privately', async () => {
    const page = await open({ width: 390, height: 844 }, true);
    await playAs(page, 'mike');
    await send(page, '/sheet create name:Troy');
    const created = message(page, 'Created').first();
    await created.waitFor();
    await send(page, '/roll dice expression:1d20');
    const roll = message(page, 'mike used').filter({ hasText: '/roll dice' }).filter({ hasText: /Roll \w{8}/ });
    await roll.waitFor();
    await expect.poll(() => roll.locator('.message-apps').evaluate((button) => (button.ownerDocument.defaultView as unknown as { getComputedStyle(element: unknown): { opacity: string } }).getComputedStyle(button).opacity)).toBe('1');
    await roll.locator('.message-apps').tap();
    await page.locator('.apps-menu').waitFor();
    const box = (await page.locator('.apps-menu').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(ARTIFACTS, 'context-menu-message-390.png') });
    await page.locator('.apps-item', { hasText: 'Add to journal' }).tap();
    await message(page, 'Added to the journal.').waitFor();
  });
});
