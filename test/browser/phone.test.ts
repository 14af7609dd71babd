// The sandbox page on a phone (390 × 844, touch) and on a desktop (1280 px), in Debian's Chromium driven by
// playwright-core, as test/browser/sandbox-page.test.ts does. Each run refreshes the screenshots
// test/artifacts/page-390-*.png and page-1280-*.png.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Locator, type Page } from 'playwright-core';
import { ARTIFACTS, HAVE_CHROMIUM, useBrowserPages } from '../helpers/browser.js';
import { type TestSandbox } from '../helpers/sandbox.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A sheet file as `/sheet export` writes one. */
const TROY_FILE = { name: 'Troy', skills: [{ name: 'Climbing', level: 40 }], archetypes: [], conditions: [] };

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'the element is laid out').not.toBeNull();
  return found!;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe.skipIf(!HAVE_CHROMIUM && !process.env.CI)('the sandbox page on a phone', () => {
  const pages = useBrowserPages();

  async function open(viewport: { width: number; height: number }): Promise<{ page: Page; sandbox: TestSandbox }> {
    const sandbox = await pages.startSandbox({});
    const phone = viewport.width < 500;
    // isMobile honours the page's viewport tag: a page too wide for the phone would widen the layout viewport.
    // Reduced motion: the player list appears at once instead of sliding in, so its place can be measured.
    const { page, problems } = await pages.open(sandbox.url, { viewport, reducedMotion: 'reduce', ...(phone ? { isMobile: true, hasTouch: true } : {}) });
    expect(problems).toEqual([]);
    return { page, sandbox };
  }

  /** Nothing scrolls sideways: not the page, not the channel, not the popup, the player list or a modal. */
  async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
    // A string: the tests' TypeScript has no DOM types; this runs in the page.
    const sizes = (await page.evaluate(`({
      innerWidth,
      page: document.documentElement.scrollWidth,
      boxes: [...document.querySelectorAll('#messages, #popup, .sidebar-scroll, .modal-body, .composer')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => ({ id: e.id || e.className, scroll: e.scrollWidth, client: e.clientWidth })),
    })`)) as { innerWidth: number; page: number; boxes: { id: string; scroll: number; client: number }[] };
    expect(sizes.innerWidth).toBe(width);
    expect(sizes.page).toBeLessThanOrEqual(sizes.innerWidth);
    for (const scroller of sizes.boxes) expect(scroller.scroll, scroller.id).toBeLessThanOrEqual(scroller.client);
  }

  /** The element lies inside the screen, left to right (and top to bottom). */
  async function expectOnScreen(page: Page, locator: Locator): Promise<void> {
    const viewport = page.viewportSize()!;
    const b = await box(locator);
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(b.y).toBeGreaterThanOrEqual(0);
    expect(b.y + b.height).toBeLessThanOrEqual(viewport.height + 0.5);
  }

  async function shoot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  }

  const drawer = (page: Page) => page.locator('#sidebar');

  /** On a phone: opens the player list from the top bar's player chip, picks or adds `name`, lands in the channel. */
  async function playAs(page: Page, name: string): Promise<void> {
    if (!(await drawer(page).isVisible())) await page.tap('#me-chip');
    await drawer(page).waitFor();
    const chip = page.locator(`.player[data-user="${name}"]`);
    if (await chip.count()) await chip.tap();
    else {
      await page.fill('#user-name', name);
      await page.press('#user-name', 'Enter');
    }
    await page.locator(`#messages[data-viewer="${name}"]`).waitFor();
    await drawer(page).waitFor({ state: 'hidden' });
    expect(await page.textContent('#me-chip')).toContain(name);
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.fill('#composer', text);
    await page.press('#composer', 'Enter');
    await expect.poll(() => page.inputValue('#composer')).toBe('');
  }

  const message = (page: Page, text: string | RegExp) => page.locator('#messages .message', { hasText: text });

  it('plays a short game at 390 px: players behind the menu, a sheet, a roll, a Dispatcher’s request, Take the roll', async () => {
    const { page } = await open(PHONE);

    // A first visit opens the player list over the channel: nothing can be sent before choosing who you are.
    await expectOnScreen(page, drawer(page));
    await expectOnScreen(page, page.locator('#user-name'));
    await expectOnScreen(page, page.locator('#user-dispatcher'));
    await shoot(page, 'page-390-players');
    await page.fill('#user-name', 'mike');
    await page.press('#user-name', 'Enter');
    await page.locator('#messages[data-viewer="mike"]').waitFor();
    await drawer(page).waitFor({ state: 'hidden' });
    expect(await page.textContent('#me-chip')).toContain('mike');

    // The message box is at the bottom of the screen, not below it.
    await expectOnScreen(page, page.locator('.composer-box'));
    expect((await box(page.locator('.composer-box'))).y).toBeGreaterThan(PHONE.height - 120);

    // The command list fits the screen, and a tap takes a command.
    await page.tap('#composer');
    await page.keyboard.type('/sheet cr');
    const create = page.locator('.popup-item[data-label="/sheet create"]');
    await create.waitFor();
    await expectOnScreen(page, page.locator('#popup'));
    await expectNoSidewaysScroll(page, PHONE.width);
    await shoot(page, 'page-390-commands');
    await create.tap();
    expect(await page.inputValue('#composer')).toBe('/sheet create ');
    await page.keyboard.type('name:Troy');
    await page.tap('#send'); // a phone's send button, as Discord's app has
    await message(page, 'Created Troy').waitFor();
    await send(page, '/sheet skill set name:Climbing level:40');
    await message(page, 'Troy now has Climbing 40').waitFor();

    await send(page, '/roll challenge skill:Climbing cl:90');
    const roll = message(page, 'mike used').filter({ hasText: '/roll challenge' }).locator('.embed');
    await roll.waitFor();
    expect(await roll.textContent()).toContain('Climbing');
    await expectOnScreen(page, roll);
    await expectNoSidewaysScroll(page, PHONE.width);
    await shoot(page, 'page-390-roll');

    // A Dispatcher: added from the menu, the role ticked there; the top bar says who is playing.
    await page.tap('#menu-button');
    await expectOnScreen(page, drawer(page));
    await page.fill('#user-name', 'dee');
    await page.press('#user-name', 'Enter');
    await page.locator('#messages[data-viewer="dee"]').waitFor();
    await page.tap('#me-chip');
    await page.locator('#user-dispatcher').tap();
    expect(await page.isChecked('#user-dispatcher')).toBe(true);
    await page.locator('.player[data-user="dee"] .badge').waitFor();
    await shoot(page, 'page-390-dispatcher');
    await page.tap('#drawer-close');
    await drawer(page).waitFor({ state: 'hidden' });
    expect(await page.textContent('#me-chip')).toMatch(/dee\s*Dispatcher/);

    // Long words and code wrap inside the embed instead of widening the page.
    const longWord = 'Troyclimbsthedrainpipepastthethirdfloorbalconywithoutasinglepause';
    await send(page, `/dispatch challenge player:mike skill:Climbing cl:80 intent:${longWord} outcome:He reaches the roof before the guard turns`);
    const request = message(page, 'Roll request #1');
    await request.locator('button:text("Take the roll")').waitFor();
    await expectOnScreen(page, request.locator('.embed'));
    for (const button of await request.locator('button').all()) await expectOnScreen(page, button);
    await expectNoSidewaysScroll(page, PHONE.width);
    await shoot(page, 'page-390-request');

    await playAs(page, 'mike');
    await request.locator('button:text("Take the roll")').tap();
    // The request states the chance before it is taken: wait for the verdict the roll adds.
    await request.filter({ hasText: /Climbing vs CL 80: (success|failure)/ }).waitFor();
    expect(await request.textContent()).toMatch(/Climbing vs CL 80: (success|failure)/);
    await expectOnScreen(page, request.locator('.embed'));
    await expectNoSidewaysScroll(page, PHONE.width);
    await shoot(page, 'page-390-taken');
  });

  it('shows the Dispatcher’s call form and a row of four buttons within 390 px', async () => {
    const { page, sandbox } = await open(PHONE);
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    await playAs(page, 'mike');
    // The options popup (names, types, required marks, descriptions) wraps within the screen.
    await page.tap('#composer');
    await page.keyboard.type('/roll intent ');
    await page.locator('.popup-item[data-label="outcome:"]').waitFor();
    await expectOnScreen(page, page.locator('#popup'));
    await expectNoSidewaysScroll(page, PHONE.width);
    await shoot(page, 'page-390-options');
    await page.keyboard.type('intent:Troy climbs to the balcony outcome:He is on the balcony unseen');
    await page.keyboard.press('Enter');
    const intent = message(page, 'climbs to the balcony').filter({ has: page.locator('button') });
    await intent.locator('button:text("Withdraw")').waitFor();
    const buttons = await intent.locator('button').all();
    expect(buttons.length).toBeGreaterThanOrEqual(4);
    for (const button of buttons) await expectOnScreen(page, button);
    await shoot(page, 'page-390-intent');

    await playAs(page, 'dee');
    await page.tap('#me-chip');
    await page.locator('#user-dispatcher').tap();
    await page.tap('#scrim', { position: { x: PHONE.width - 20, y: PHONE.height / 2 } });
    await drawer(page).waitFor({ state: 'hidden' });
    await intent.locator('button:text("Call for a roll")').tap();
    const modal = page.locator('dialog#modal[open]');
    await modal.waitFor();
    await expectOnScreen(page, modal.locator('.modal-header'));
    const form = await box(modal);
    expect(form.x).toBeGreaterThanOrEqual(0);
    expect(form.x + form.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoSidewaysScroll(page, PHONE.width);
    await shoot(page, 'page-390-modal');
    await modal.locator('[data-custom-id="skill"]').fill('Climbing');
    await modal.locator('[data-custom-id="cl"]').fill('80');
    await modal.locator('button[type="submit"]').tap();
    await modal.waitFor({ state: 'hidden' });
  });

  it('keeps the composer’s error readable above the suggestion popup', async () => {
    const { page, sandbox } = await open(PHONE);
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await playAs(page, 'mike');
    await page.tap('#composer');
    await page.keyboard.type('/roll challenge skill:Climbing cl:ninety');
    await page.locator('#popup:not([hidden])').waitFor();
    await page.keyboard.press('Enter');
    const error = page.locator('#composer-error');
    await expect.poll(() => error.textContent()).toMatch(/cl/);
    expect(await page.locator('#popup').isVisible()).toBe(true);
    const [errorBox, popupBox, inputBox] = [await box(error), await box(page.locator('#popup')), await box(page.locator('.composer-box'))];
    expect(overlaps(errorBox, popupBox)).toBe(false);
    expect(overlaps(errorBox, inputBox)).toBe(false);
    await expectOnScreen(page, error);
    await expectOnScreen(page, page.locator('#popup'));
    expect(await page.inputValue('#composer')).toBe('/roll challenge skill:Climbing cl:ninety');
    await shoot(page, 'page-390-composer-error');
  });

  it('opens the file picker with Enter on “Upload a file…”, then imports the sheet with Enter', async () => {
    const { page } = await open(PHONE);
    // Listening before typing: Playwright turns on file-chooser interception asynchronously, and a key pressed
    // before it is on opens a native picker no one sees (the race of puppeteer#6040).
    const chooserOpened = page.waitForEvent('filechooser', { timeout: 30_000 });
    await playAs(page, 'olga');
    await page.tap('#composer');
    await page.keyboard.type('/sheet import file:');
    const upload = page.locator('.popup-item[data-label="Upload a file…"]');
    await upload.waitFor();
    expect(await upload.getAttribute('class')).toContain('active');
    await page.keyboard.press('Enter');
    const chooser = await chooserOpened;
    expect(await page.inputValue('#composer')).toBe('/sheet import file:');
    await chooser.setFiles({ name: 'troy.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(TROY_FILE)) });
    await expect.poll(() => page.inputValue('#composer')).toBe('/sheet import file:troy.json ');
    await page.keyboard.press('Enter');
    await message(page, 'Imported').waitFor();
    expect(await message(page, 'Imported').textContent()).toContain('Troy');
  });

  it('keeps the desktop layout at 1280 px: both sidebars shown, no menu button', async () => {
    const { page, sandbox } = await open(DESKTOP);
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    await page.fill('#user-name', 'mike');
    await page.press('#user-name', 'Enter');
    await page.locator('#messages[data-viewer="mike"]').waitFor();
    expect(await page.locator('#menu-button').isVisible()).toBe(false);
    expect(await page.locator('#me-chip').isVisible()).toBe(false);
    await expectOnScreen(page, page.locator('.servers'));
    await expectOnScreen(page, page.locator('#user-dispatcher'));
    await page.fill('#composer', '/roll challenge skill:Climbing cl:90');
    await page.press('#composer', 'Enter');
    await message(page, 'mike used').filter({ hasText: '/roll challenge' }).locator('.embed').waitFor();
    await page.click('#composer');
    await page.keyboard.type('/roll ch');
    await page.locator('.popup-item[data-label="/roll challenge"]').waitFor();
    await expectNoSidewaysScroll(page, DESKTOP.width);
    await shoot(page, 'page-1280-roll');
  });
});
