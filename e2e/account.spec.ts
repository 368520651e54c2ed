import { expect, type Page } from '@playwright/test';
// The app's test: fails on anything in the browser console (support/fixtures.ts).
import { test } from './support/fixtures';
import {
  expectAccessible,
  oversizeRequestsTo,
  removeOversizedCookies,
  toastRegion as toasts,
  toastsSettled,
  uniqueEmail,
  storeTokenOutsideApp,
} from './support/fixtures';

/**
 * Account settings against the real server. Each test registers its own seller (in the scout
 * group, away from the dashboard tests' class), so changing a name, password or address never
 * touches the demo accounts.
 */
async function signInAsFreshSeller(page: Page, prefix: string, project: string, password = 'forsta-losen-1') {
  const email = uniqueEmail(prefix, project);
  const response = await page.request.post('/api/auth/register-seller', {
    data: { full_name: 'Ebba Ekström', email, password, group_code: 'SCT482' },
  });
  expect(response.ok()).toBe(true);
  const { token } = (await response.json()) as { token: string };
  await storeTokenOutsideApp(page, token);
  return { email, password };
}

test.describe('account settings', () => {
  test('the profile needs a name, saves name and phone, and shows the e-mail read-only', async ({ page }, testInfo) => {
    const { email } = await signInAsFreshSeller(page, 'profil', testInfo.project.name);
    await page.goto('/account/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Kontoinställningar' })).toBeVisible();
    const profile = page.getByRole('form', { name: 'Profil' });
    await expect(profile.getByLabel('Fullständigt namn')).toHaveValue('Ebba Ekström');
    await expect(profile.getByLabel('E-post')).toHaveValue(email);
    await expect(profile.getByLabel('E-post')).toHaveAttribute('readonly', '');
    await toastsSettled(page);
    await expectAccessible(page, '/account/settings');

    await profile.getByLabel('Fullständigt namn').fill('   ');
    await profile.getByRole('button', { name: 'Spara profil' }).click();
    await expect(profile.getByText('Ange ditt fullständiga namn.')).toBeVisible();
    await expect(toasts(page).getByText('Namn krävs')).toBeVisible();
    await toastsSettled(page);
    await expectAccessible(page, 'profil med fel');

    // A phone number is a phone number; the field holds what the server takes (issue 33 point 8).
    await expect(profile.getByLabel('Fullständigt namn')).toHaveAttribute('maxlength', '120');
    await expect(profile.getByLabel('Telefon')).toHaveAttribute('maxlength', '40');
    await profile.getByLabel('Fullständigt namn').fill('Åsa Öberg');
    await profile.getByLabel('Telefon').fill('abc ☎️ 123');
    await profile.getByRole('button', { name: 'Spara profil' }).click();
    await expect(profile.getByLabel('Telefon')).toBeFocused();
    await expect(profile.getByLabel('Telefon')).toHaveAccessibleDescription(
      'Valfritt. Ange ett telefonnummer med siffror, till exempel 070-123 45 67',
    );

    await profile.getByLabel('Fullständigt namn').fill('  Åsa Öberg  ');
    await profile.getByLabel('Telefon').fill(' 070-111 22 33 ');
    await profile.getByRole('button', { name: 'Spara profil' }).click();
    await expect(toasts(page).getByText('Profil uppdaterad')).toBeVisible();
    // The fields show what was stored, trimmed, without a reload.
    await expect(profile.getByLabel('Fullständigt namn')).toHaveValue('Åsa Öberg');
    await expect(profile.getByLabel('Telefon')).toHaveValue('070-111 22 33');

    // Saved trimmed on the server: a fresh page reads it back, and the greeting uses it.
    await page.reload();
    await expect(page.getByRole('form', { name: 'Profil' }).getByLabel('Fullständigt namn')).toHaveValue('Åsa Öberg');
    await expect(page.getByRole('form', { name: 'Profil' }).getByLabel('Telefon')).toHaveValue('070-111 22 33');
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Åsa!' })).toBeVisible();
  });

  test('changing the password checks length, confirmation and the current password', async ({ page }, testInfo) => {
    const { email, password } = await signInAsFreshSeller(page, 'losen', testInfo.project.name);
    await page.goto('/account/settings');
    const form = page.getByRole('form', { name: 'Byt lösenord' });

    await form.getByLabel('Nuvarande lösenord').fill(password);
    await form.getByLabel('Nytt lösenord', { exact: true }).fill('kort');
    await form.getByLabel('Bekräfta nytt lösenord').fill('annat');
    await form.getByRole('button', { name: 'Byt lösenord' }).click();
    await expect(toasts(page).getByText('Lösenordet är för kort')).toBeVisible();
    await expect(form.getByText('Lösenordet måste vara minst 8 tecken')).toBeVisible();
    await expect(form.getByText('Kontrollera att båda lösenorden är identiska')).toBeVisible();
    await toastsSettled(page);
    await expectAccessible(page, 'byt lösenord med fel');

    await form.getByLabel('Nytt lösenord', { exact: true }).fill('nytt-losen-2');
    await form.getByRole('button', { name: 'Byt lösenord' }).click();
    await expect(toasts(page).getByText('Lösenorden matchar inte')).toBeVisible();

    await form.getByLabel('Bekräfta nytt lösenord').fill('nytt-losen-2');
    await form.getByLabel('Nuvarande lösenord').fill('fel-losen-9');
    await form.getByRole('button', { name: 'Byt lösenord' }).click();
    await expect(toasts(page).getByText('Fel vid lösenordsändring')).toBeVisible();
    // The server's refusal stays at its field, and focus goes there (issue 33 point 3).
    await expect(form.getByLabel('Nuvarande lösenord')).toBeFocused();
    await expect(form.getByLabel('Nuvarande lösenord')).toHaveAccessibleDescription('Nuvarande lösenord är fel');
    await toastsSettled(page);
    await expectAccessible(page, 'fel nuvarande lösenord');

    await form.getByLabel('Nuvarande lösenord').fill(password);
    await form.getByRole('button', { name: 'Byt lösenord' }).click();
    await expect(toasts(page).getByText('Lösenord ändrat')).toBeVisible();
    await expect(form.getByLabel('Nuvarande lösenord')).toHaveValue('');
    // The change ended every other session, not this one: the page goes on with the renewed token.
    await page.reload();
    await expect(page).toHaveURL(/\/account\/settings$/);
    await expect(page.getByRole('form', { name: 'Profil' }).getByLabel('E-post')).toHaveValue(email);

    const oldLogin = await page.request.post('/api/auth/login', { data: { email, password } });
    expect(oldLogin.status()).toBe(401);
    const newLogin = await page.request.post('/api/auth/login', { data: { email, password: 'nytt-losen-2' } });
    expect(newLogin.ok()).toBe(true);
  });

  test('changing the e-mail wants an address with an at-sign and the current password', async ({ page }, testInfo) => {
    const { password } = await signInAsFreshSeller(page, 'epost', testInfo.project.name);
    const newEmail = uniqueEmail('ny.adress', testInfo.project.name);
    await page.goto('/account/settings');
    const form = page.getByRole('form', { name: 'Byt e-postadress' });

    await form.getByLabel('Ny e-postadress').fill('utan-snabel-a.se');
    await form.getByRole('button', { name: 'Byt e-postadress' }).click();
    await expect(toasts(page).getByText('Ogiltig e-postadress')).toBeVisible();
    await expect(form.getByText('Ange en giltig e-postadress')).toBeVisible();
    await expect(form.getByText('Ange ditt nuvarande lösenord för att byta e-post.')).toBeVisible();
    await toastsSettled(page);
    await expectAccessible(page, 'byt e-post med fel');

    await form.getByLabel('Ny e-postadress').fill(newEmail);
    await form.getByRole('button', { name: 'Byt e-postadress' }).click();
    await expect(toasts(page).getByText('Nuvarande lösenord krävs')).toBeVisible();

    // An address another account has: said at the address, where focus goes (issue 33 point 3).
    await form.getByLabel('Ny e-postadress').fill('noah@demo.se');
    await form.getByLabel('Nuvarande lösenord').fill(password);
    await form.getByRole('button', { name: 'Byt e-postadress' }).click();
    await expect(form.getByLabel('Ny e-postadress')).toBeFocused();
    await expect(form.getByLabel('Ny e-postadress')).toHaveAccessibleDescription('E-postadressen används redan av ett annat konto');
    await expectAccessible(page, 'e-post som används');

    await form.getByLabel('Ny e-postadress').fill(newEmail);
    await expect(form.getByLabel('Ny e-postadress')).not.toHaveAttribute('aria-invalid');
    await form.getByLabel('Nuvarande lösenord').fill(password);
    await form.getByRole('button', { name: 'Byt e-postadress' }).click();
    await expect(toasts(page).getByText('E-post uppdaterad')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Profil' }).getByLabel('E-post')).toHaveValue(newEmail);
    const login = await page.request.post('/api/auth/login', { data: { email: newEmail, password } });
    expect(login.ok()).toBe(true);
  });

  test('a profile that cannot be loaded says so, and the retry reloads the page', async ({ page }, testInfo) => {
    await signInAsFreshSeller(page, 'laddfel', testInfo.project.name);
    // A genuine failure of the real server, neither 401 nor 403: request headers too large.
    await oversizeRequestsTo(page, '/api/account/profile');
    // Every answer is kept: only that the server refused the page's request is fixed, not which answer comes first.
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/account/profile') statuses.push(response.status());
    });
    await page.goto('/account/settings');
    await expect(page.getByText('Kunde inte ladda profildata.')).toBeVisible();
    expect(statuses).toContain(431);
    await expect(page).toHaveURL(/\/account\/settings$/);
    await expect(toasts(page).getByText('Fel vid laddning')).toBeVisible();
    await toastsSettled(page);
    await expectAccessible(page, 'profilen gick inte att ladda');

    await removeOversizedCookies(page);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Försök igen' }).click()]);
    await expect(page.getByRole('form', { name: 'Profil' }).getByLabel('Fullständigt namn')).toHaveValue('Ebba Ekström');
  });
});
