import { execFileSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import { expectAccessible, storeTokenOutsideApp, toastRegion, toastsSettled, uniqueEmail } from './support/fixtures';

/**
 * Issue 32 point 3: a name prints as it is written, and where a character cannot be printed the
 * field where the name is chosen says so before saving. A fresh seller in the scout group, away
 * from the class the dashboard tests count.
 */
async function freshSeller(page: Page, project: string) {
  const response = await page.request.post('/api/auth/register-seller', {
    data: { full_name: 'Alva Lind', email: uniqueEmail('utskrift', project), password: 'forsta-losen-1', group_code: 'SCT482' },
  });
  expect(response.ok()).toBe(true);
  const { token } = (await response.json()) as { token: string };
  await storeTokenOutsideApp(page, token);
}

test.describe('names in the PDFs', () => {
  test.slow();
  test('a character no PDF font has is named at the field before saving, and the catalogue keeps an emoji alias', async ({
    page,
  }, testInfo) => {
    await freshSeller(page, testInfo.project.name);
    await page.goto('/account/settings');
    const profile = page.getByRole('form', { name: 'Profil' });
    const name = profile.getByLabel('Fullständigt namn');
    await expect(name).toHaveValue('Alva Lind');
    const warning = 'Tecknet ”李” kan inte skrivas ut i katalogen och på andra utskrifter och blir en ruta där. Namnet sparas ändå.';
    await expect(profile.getByText(warning)).toBeHidden();

    // A Chinese character: no font the PDFs embed draws it. Said as it is typed, read out with the field.
    await name.fill('Alva 李 Lind');
    await expect(profile.getByText(warning)).toBeVisible();
    await expect(name).toHaveAccessibleDescription(warning);
    await expect(name).not.toHaveAttribute('aria-invalid', 'true');
    await toastsSettled(page);
    await expectAccessible(page, 'profil med ett tecken som inte kan skrivas ut');
    // A legal name is a name: it is saved all the same.
    await profile.getByRole('button', { name: 'Spara profil' }).click();
    await expect(toastRegion(page).getByText('Profil uppdaterad')).toBeVisible();

    // An emoji, Polish and Vietnamese letters print: nothing is said.
    await name.fill('Łucja Şahin-Nguyễn');
    await expect(profile.getByText(/kan inte skrivas ut/)).toHaveCount(0);

    const choice = page.getByRole('form', { name: 'Namn som köpare ser' });
    await expect(choice).toBeVisible({ timeout: 30_000 });
    await choice.getByRole('radio', { name: /Alias/ }).check();
    const alias = choice.getByLabel('Alias', { exact: true });
    await alias.fill('Alva 🌟 från 6B');
    await expect(choice.getByText(/kan inte skrivas ut/)).toHaveCount(0);
    await choice.getByRole('button', { name: 'Spara namnval' }).click();
    await expect(toastRegion(page).getByText('Köpare ser nu: Alva 🌟 från 6B')).toBeVisible();
    await toastsSettled(page);

    // The catalogue prints the alias as written, and is saved under it.
    await page.goto('/dashboard');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Ladda ner katalog' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('katalog-Alva-från-6B.pdf');
    const text = execFileSync('/usr/bin/pdftotext', [await download.path(), '-'], { encoding: 'utf8' });
    expect(text).toContain('Alva 🌟 från 6B');
  });
});
