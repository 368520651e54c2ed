import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { sendShopifyWebhook, swedishOrder } from '../apps/server/test/shopify-webhooks';
import { E2E_WEBHOOK_SECRET, expectAccessible, signInQuickly, test, uniqueEmail } from './support/fixtures';

/**
 * Issue 19 point 5: every journey by keyboard alone. Nothing here clicks: Tab (or Shift+Tab) to a
 * control, then Enter, Space, arrow keys or typing, as a person without a mouse does. A control
 * the keyboard cannot reach within a page's worth of Tabs fails the test.
 */
async function tabTo(page: Page, target: Locator, { backwards = false, most = 80 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let step = 0; step < most; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab nådde inte ${String(target)}`);
}

/** Tabs to a text field and types into it, replacing what it held. */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/**
 * Types a date into a date field part by part, as a person does. Chromium orders the parts by its
 * own language (not the page's), so the year, month and day go in whichever order takes.
 */
async function typeDate(page: Page, field: Locator, isoDate: string): Promise<void> {
  const [year, month, day] = isoDate.split('-') as [string, string, string];
  for (const parts of [
    [year, month, day],
    [month, day, year],
    [day, month, year],
  ]) {
    await tabTo(page, field);
    // From the control before it, so that typing starts in the field's first part.
    while (await field.evaluate((element) => element === document.activeElement)) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    for (const part of parts) {
      await page.keyboard.type(part);
      if (part === year) await page.keyboard.press('ArrowRight');
    }
    if ((await field.inputValue()) === isoDate) return;
  }
  throw new Error(`datumet ${isoDate} gick inte att skriva in`);
}

const toast = (page: Page) => page.locator('[data-sonner-toast][data-front="true"]:not([data-removed="true"])');
const isPhone = (testInfo: TestInfo) => testInfo.project.name === 'phone';
let nextOrderId = 7_980_000_000_000 + (Date.now() % 1_000_000) * 10;

test.describe('keyboard only', () => {
  test('a seller registers, signs in, shares the link, downloads the catalogue and changes settings', async ({
    page,
    context,
  }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const email = uniqueEmail('tangentbord', testInfo.project.name);
    const password = 'tangenter1';

    // Register.
    await page.goto('/register/seller');
    await typeInto(page, page.getByLabel('Namn'), 'Tove Tangentbord');
    await typeInto(page, page.getByLabel('E-post'), email);
    await typeInto(page, page.getByLabel('Lösenord', { exact: true }), password);
    await typeInto(page, page.getByLabel('Gruppkod'), 'BJK6B2');
    // 'Är du under 13 år?': into the group on 'Ja', an arrow moves to 'Nej' and chooses it (issue 22).
    await tabTo(page, page.getByRole('radio', { name: 'Ja' }));
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'Nej' })).toBeChecked();
    await tabTo(page, page.getByRole('button', { name: 'Registrera' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Registrering klar' })).toBeVisible();

    // Sign in (registering signs in; out again, by keyboard, to sign in as a person does).
    const menu = page.getByRole('button', { name: 'Öppna menyn' });
    if (isPhone(testInfo)) {
      await tabTo(page, menu);
      await page.keyboard.press('Enter');
    }
    await tabTo(page, page.getByRole('button', { name: 'Logga ut' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/login$/);
    await typeInto(page, page.getByLabel('E-post'), email);
    await typeInto(page, page.getByLabel('Lösenord', { exact: true }), password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: /^Hej, Tove/ })).toBeVisible();

    // Share the link.
    await tabTo(page, page.getByRole('button', { name: 'Kopiera länk' }));
    await page.keyboard.press('Enter');
    await expect(toast(page)).toContainText('Länk kopierad!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/s\/[A-Z0-9]+$/);

    // Download the catalogue.
    const download = page.waitForEvent('download');
    await tabTo(page, page.getByRole('button', { name: 'Ladda ner katalog' }));
    await page.keyboard.press('Enter');
    expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
    await expect(toast(page)).toContainText('Katalog nedladdad');

    // Change settings: to the account page through the header, then the profile form.
    if (isPhone(testInfo)) {
      await tabTo(page, menu, { backwards: true });
      await page.keyboard.press('Enter');
    }
    await tabTo(page, page.getByRole('link', { name: 'Konto' }), { backwards: true });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/account\/settings$/);
    const name = page.getByLabel('Fullständigt namn');
    await expect(name).toHaveValue('Tove Tangentbord');
    await typeInto(page, name, 'Tove Tangentsson');
    await tabTo(page, page.getByRole('button', { name: 'Spara profil' }));
    await page.keyboard.press('Enter');
    await expect(toast(page)).toContainText('Profil uppdaterad');
    await page.reload();
    await expect(page.getByLabel('Fullständigt namn')).toHaveValue('Tove Tangentsson');
  });

  test('a seller in two groups switches group and back', async ({ page }, testInfo) => {
    await signInQuickly(page, 'elsa@demo.se');
    await page.goto('/dashboard');
    const groupName = page.locator('main h1 + p, main h1 ~ *').first();
    await expect(groupName).toBeVisible();
    const before = await page.locator('main').innerText();
    for (const round of [1, 2]) {
      if (isPhone(testInfo)) {
        await tabTo(page, page.getByRole('button', { name: 'Öppna menyn' }));
        await page.keyboard.press('Enter');
      }
      const switcher = page.getByRole('button', { name: /Byt grupp|Aktiv grupp|Grupp/ }).first();
      await tabTo(page, switcher);
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowDown');
      // The first option is the active group; the other one is next.
      let option = await page.evaluate(() => document.activeElement?.textContent ?? '');
      if (/Aktiv/.test(option)) {
        await page.keyboard.press('ArrowDown');
        option = await page.evaluate(() => document.activeElement?.textContent ?? '');
      }
      expect(option).not.toMatch(/Aktiv/);
      await page.keyboard.press('Enter');
      await expect(toast(page)).toContainText('Grupp ändrad');
      if (round === 1) expect(await page.locator('main').innerText()).not.toBe(before);
    }
  });

  test('the superadmin creates a group, adds a user, assigns an order, creates a payout and marks it paid', async ({
    page,
    baseURL,
  }, testInfo) => {
    test.setTimeout(120_000);
    const run = `${testInfo.project.name} ${Date.now().toString(36)}`;
    const groupName = `Tangentklassen ${run}`;
    const sellerName = `Kim Tangent ${testInfo.project.name}`;
    await signInQuickly(page, 'admin@saljportalen.se');

    // Create a group.
    await page.goto('/admin/groups/create');
    await typeInto(page, page.getByLabel('Gruppnamn'), groupName);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Grupp skapad' })).toBeFocused();
    await tabTo(page, page.getByRole('link', { name: 'Öppna gruppen' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: groupName })).toBeVisible();

    // Where its money goes (issue 30 point 6): a payout is marked paid only to an account.
    await tabTo(page, page.getByRole('button', { name: 'Lägg in utbetalningsuppgifter' }));
    await page.keyboard.press('Enter');
    // A radio group is one tab stop; the arrow keys choose within it.
    await tabTo(page, page.getByRole('radio', { name: 'Bankgiro' }));
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'Plusgiro' })).toBeChecked();
    await typeInto(page, page.getByLabel('Plusgironummer'), '90 20 90-0');
    await typeInto(page, page.getByLabel('Kontohavare'), 'Tangentskolans föräldraförening');
    await page.keyboard.press('Enter');
    await expect(toast(page)).toContainText('Utbetalningsuppgifter sparade');
    const accountCard = page.getByRole('region', { name: 'Utbetalningsuppgifter' });
    await expect(accountCard).toContainText('Plusgiro 902090-0');
    await expect(accountCard).toContainText('Tangentskolans föräldraförening');

    // Add a user.
    await tabTo(page, page.getByRole('link', { name: 'Lägg till användare' }));
    await page.keyboard.press('Enter');
    await typeInto(page, page.getByLabel('E-post'), uniqueEmail('tangent.kim', testInfo.project.name));
    await typeInto(page, page.getByLabel('Fullständigt namn'), sellerName);
    await page.keyboard.press('Enter');
    await expect(toast(page)).toContainText('Användare skapad och tillagd');
    await expect(page.getByRole('heading', { level: 1, name: groupName })).toBeVisible();

    // Assign an order that came without a personal link code.
    const orderName = `#T${Date.now().toString(36).toUpperCase()}`;
    const id = nextOrderId++;
    const order = swedishOrder({
      id,
      name: orderName,
      refCode: null,
      landingSite: '/products/bivaxdukar',
      discountCodes: [],
      createdAt: new Date().toISOString(),
      lineItems: [{ id: id * 10, productId: null, title: 'Bivaxdukar 3-pack', price: '249.00', quantity: 2 }],
    });
    expect((await sendShopifyWebhook(baseURL!, 'orders/create', order, { secret: E2E_WEBHOOK_SECRET })).status).toBe(200);
    await page.goto('/admin/orders/unattributed');
    await tabTo(page, page.getByRole('button', { name: `Tilldela order ${orderName}` }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Tilldela order ${orderName}` });
    await expect(dialog).toBeVisible();
    await typeInto(page, dialog.getByRole('combobox', { name: 'Grupp', exact: true }), groupName);
    await expect(dialog.getByRole('option', { name: groupName, exact: true })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('combobox', { name: 'Grupp', exact: true })).toHaveValue(groupName);
    await typeInto(page, dialog.getByRole('combobox', { name: 'Säljare' }), sellerName);
    await expect(dialog.getByRole('option', { name: new RegExp(`^${sellerName}`) })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await tabTo(page, dialog.getByRole('button', { name: 'Tilldela', exact: true }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();

    // Create a payout of the group's order, without archiving the group.
    await page.goto('/admin/payouts');
    const form = page.getByRole('form', { name: 'Skapa ny avräkning' });
    await typeInto(page, form.getByRole('combobox', { name: 'Grupp', exact: true }), groupName);
    await expect(form.getByRole('option', { name: groupName, exact: true })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(form.getByRole('combobox', { name: 'Grupp', exact: true })).toHaveValue(groupName);
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date());
    for (const label of ['Från', 'Till']) await typeDate(page, form.getByLabel(label), today);
    const archive = form.getByLabel('Arkivera gruppen efter avräkning');
    await tabTo(page, archive);
    await page.keyboard.press('Space');
    await expect(archive).not.toBeChecked();
    const created = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/api/admin/payouts'),
    );
    await tabTo(page, form.getByRole('button', { name: 'Skapa avräkning' }));
    await page.keyboard.press('Enter');
    const payout = (await (await created).json()) as { id: number };
    await expect(toast(page)).toContainText('Avräkning skapad');

    // Mark it paid.
    const item = page.getByRole(isPhone(testInfo) ? 'listitem' : 'row').filter({ has: page.getByText(`Nr ${payout.id}`, { exact: true }) });
    await tabTo(page, item.getByRole('button', { name: /Markera som betald/ }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Markera som betald?' });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText('Plusgiro 902090-0');
    await tabTo(page, confirm.getByRole('button', { name: 'Markera som betald' }));
    await page.keyboard.press('Enter');
    await expect(item.getByText('Betald')).toBeVisible();
    // axe measures colours: only once the toast it replaced has faded out.
    await expect(page.locator('[data-sonner-toast][data-removed="true"]')).toHaveCount(0);
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
    await expectAccessible(page, 'avräkning betald med tangentbordet');
  });

  test('Tab passes a toast on to the header, the toast still goes, and Space keeps the switch in focus', async ({ page }) => {
    await signInQuickly(page, 'larare@bjorkskolan.se');
    await page.goto('/dashboard');
    const visibility = page.getByRole('switch', { name: 'Visa för säljarna' });
    await tabTo(page, visibility);
    const shown = await visibility.getAttribute('aria-checked');
    await page.keyboard.press('Space');
    await expect(visibility).not.toHaveAttribute('aria-checked', shown!);
    await expect(visibility).toBeFocused();
    await expect(visibility).not.toHaveAttribute('aria-disabled', 'true');
    // A second Space works too: the setting goes back.
    await page.keyboard.press('Space');
    await expect(visibility).toHaveAttribute('aria-checked', shown!);
    await expect(visibility).toBeFocused();
    await expect(toast(page)).toContainText('Inställning uppdaterad');

    // Through the toast and its 'Stäng', and on to the header: no trap.
    await tabTo(page, toast(page));
    await page.keyboard.press('Tab');
    await expect(toast(page).getByRole('button', { name: 'Stäng' })).toBeFocused();
    await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Säljportalen' }));

    // A toast with the keyboard's focus goes away in its time, and focus returns to the page.
    await tabTo(page, visibility, { backwards: true });
    await page.keyboard.press('Space');
    await expect(visibility).not.toHaveAttribute('aria-checked', shown!);
    await expect(visibility).not.toHaveAttribute('aria-disabled', 'true');
    await expect(visibility).toBeFocused();
    await page.keyboard.press('Space');
    await expect(visibility).toHaveAttribute('aria-checked', shown!);
    await tabTo(page, toast(page));
    // Where focus came from: one step back from the toast.
    await page.keyboard.press('Shift+Tab');
    await page.evaluate(() => document.activeElement?.setAttribute('data-before-toast', ''));
    await page.keyboard.press('Tab');
    await expect(toast(page)).toBeFocused();
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.locator('[data-before-toast]')).toBeFocused();
  });
});
