import { expect, type Locator, type Page } from '@playwright/test';
import { expectAccessible, signInQuickly, test } from './support/fixtures';

/**
 * Issue 22 point 6: the privacy page `/integritet` is public, reached from every page's footer and
 * from registration, by keyboard alone, and passes axe.
 */
async function tabTo(page: Page, target: Locator, most = 60): Promise<void> {
  await expect(target).toBeVisible();
  for (let step = 0; step < most; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab nådde inte ${String(target)}`);
}

async function expectPrivacyPage(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/integritet$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Så hanterar vi dina uppgifter' })).toBeVisible();
  for (const section of ['Vad vi sparar och varför', 'Vem ser vad', 'Hur länge vi sparar', 'Barn under 13 år', 'Frågor eller klagomål']) {
    await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible();
  }
  await expect(page.getByText('Ladda ner mina uppgifter')).toBeVisible();
  await expect(page.getByText('Radera mitt konto')).toBeVisible();
  await expect(page.getByText('raderas automatiskt när gruppen är avslutad och ingen har loggat in på 24 månader')).toBeVisible();
  // The contact comes from the server's PRIVACY_CONTACT.
  await expect(page.getByRole('link', { name: 'integritet@saljportalen.se' })).toHaveAttribute('href', 'mailto:integritet@saljportalen.se');
  await expectAccessible(page, '/integritet');
}

test('a parent reaches the privacy page from the login page footer by keyboard', async ({ page }) => {
  await page.goto('/login');
  const footerLink = page.getByRole('contentinfo').getByRole('link', { name: 'Integritet och dina uppgifter' });
  await tabTo(page, footerLink);
  // The focus is visible: an outline or a ring drawn around the link.
  const outline = await footerLink.evaluate((element) => {
    const style = getComputedStyle(element);
    return style.outlineStyle !== 'none' || style.boxShadow !== 'none';
  });
  expect(outline).toBe(true);
  await page.keyboard.press('Enter');
  await expectPrivacyPage(page);
});

test('a parent reaches the privacy page from the seller registration by keyboard', async ({ page }) => {
  await page.goto('/register/seller');
  await expectAccessible(page, '/register/seller');
  await tabTo(page, page.getByRole('main').getByRole('link', { name: 'Läs om integritet' }));
  await page.keyboard.press('Enter');
  await expectPrivacyPage(page);
});

test('the footer links to the privacy page on a signed-in page too', async ({ page }) => {
  await signInQuickly(page, 'noah@demo.se');
  await page.goto('/dashboard');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Integritet och dina uppgifter' }).click();
  await expectPrivacyPage(page);
});
