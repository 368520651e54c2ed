import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import { apiToken, expectAccessible, latestMailTo, signInQuickly, test, uniqueEmail } from './support/fixtures';

const ADMIN_PASSWORD = 'hemligt-losen-1';

/** The next person on the same phone: no token, no refresh cookie. */
async function signedOut(page: Page) {
  await page.context().clearCookies();
  await page.goto('/api/health');
  await page.evaluate(() => localStorage.clear());
}

/**
 * Issue 31 points 1 and 2 on a phone: a teacher pastes a class list, sees each row before saving,
 * saves, prints the sign-in slips (the PDF's text read with pdftotext), a guardian approves from
 * the invitation and chooses the pupil's password, and the pupils sign in with their usernames:
 * one with the guardian's password, one with the slip's one-time code.
 */
test.describe('a class list', () => {
  test('pasted, previewed, saved; slips printed; a guardian approves; pupils sign in with usernames', async ({ page }, testInfo) => {
    // A long journey through three people's sessions, on a machine shared with other runs.
    test.setTimeout(180_000);

    // A class of its own, so no other test's counts change: its teacher signs in.
    const superadmin = await apiToken(page.request, 'admin@saljportalen.se');
    const teacher = uniqueEmail('klasslarare', testInfo.project.name);
    const groupName = `Klass 4C ${Date.now()}`;
    const created = await page.request.post('/api/admin/groups/create', {
      headers: { authorization: `Bearer ${superadmin}` },
      data: { group_name: groupName, admin: { email: teacher, password: ADMIN_PASSWORD, full_name: 'Lena Lärare' } },
    });
    expect(created.ok()).toBe(true);
    await signInQuickly(page, teacher, ADMIN_PASSWORD);
    await page.goto('/dashboard');

    // Excel's Swedish CSV: semicolons, a header line; one row with no last name.
    const guardian = uniqueEmail('foralder', testInfo.project.name);
    const card = page.getByRole('region', { name: 'Lägg till elever från klasslista' });
    await card.getByLabel('Klasslista').fill(`Namn;Vårdnadshavare\nIdun Öberg;${guardian}\nTore Åkesson;\nEnsam;`);
    await card.getByRole('button', { name: 'Förhandsgranska' }).click();
    const preview = card.getByRole('region', { name: 'Förhandsgranskning av klasslistan' });
    await expect(card.getByText('3 rader, 1 med fel som inte sparas. Inget är sparat än.')).toBeVisible();
    await expect(preview.getByRole('row', { name: /Idun Öberg/ })).toContainText('Läggs till, vårdnadshavaren får ett mejl');
    await expect(preview.getByRole('row', { name: /Tore Åkesson/ })).toContainText('Ingen (inloggningslapp)');
    await expect(preview.getByRole('row', { name: /Ensam/ })).toContainText('Skriv både för- och efternamn');
    await expectAccessible(page, 'klasslistans förhandsgranskning');

    await card.getByRole('button', { name: 'Spara klasslistan' }).click();
    const outcome = card.getByRole('region', { name: 'Resultat av klasslistan' });
    await expect(card.getByText('2 elever tillagda, 1 rad inte tillagd.')).toBeVisible();
    const idunRow = outcome.getByRole('row', { name: /Idun Öberg/ });
    await expect(idunRow).toContainText('Tillagd');
    await expect(idunRow).toContainText('Mejl skickat till vårdnadshavaren');
    await expect(outcome.getByRole('row', { name: /Ensam/ })).toContainText('Inte tillagd');
    const idun = (await idunRow.getByRole('cell').last().innerText()).trim();
    const tore = (
      await outcome
        .getByRole('row', { name: /Tore Åkesson/ })
        .getByRole('cell')
        .last()
        .innerText()
    ).trim();
    expect(idun).toMatch(/^idun\.ob\d*$/);
    expect(tore).toMatch(/^tore\.ak\d*$/);
    await expectAccessible(page, 'klasslistans resultat');

    // The slips: a PDF with Tore's username and one-time code, none for Idun whose guardian was mailed.
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Skriv ut inloggningslappar' }).click();
    const download = await downloading;
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('/usr/bin/pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain(groupName);
    expect(text).toContain('Tore Åkesson');
    expect(text).toContain(`Användarnamn: ${tore}`);
    expect(text).not.toContain('Idun');
    expect(text).toMatch(/Koden fungerar en gång, till och med \d{1,2} [a-zåäö]+ \d{4}/);
    const code = new RegExp(`Engångskod: ([A-Z0-9]{4}-[A-Z0-9]{4})`).exec(text)?.[1];
    expect(code).toBeDefined();
    await expect(page.getByText('Inloggningslappar nedladdade')).toBeVisible();

    // The guardian's invitation: approve, with a new account, choosing Idun's password and name.
    await signedOut(page);
    const mail = await latestMailTo(guardian);
    expect(mail.text).toContain('har lagt till ”Idun Öberg”');
    await page.goto(mail.link!.replace(/^https?:\/\/[^/]+/, ''));
    await expect(page.getByRole('heading', { name: 'Godkänn ditt barns konto' })).toBeVisible();
    await expect(page.getByLabel('Barnets användarnamn')).toHaveValue(idun);
    await expectAccessible(page, '/vardnadshavare/godkann för en elev från klasslista');
    await page.getByLabel('Ditt namn').fill('Olle Öberg');
    await page.getByLabel('Välj lösenord').fill('olles-losen-1');
    await page.getByRole('button', { name: 'Godkänn och skapa konto' }).click();
    await expect(page.getByLabel('Välj barnets lösenord')).toHaveAccessibleDescription('Minst 8 tecken. Lösenord krävs');
    await page.getByLabel('Välj barnets lösenord').fill('iduns-losen-1');
    await page.getByRole('radio', { name: 'Hela namnet' }).check();
    await page.getByRole('button', { name: 'Godkänn och skapa konto' }).click();
    await expect(page).toHaveURL(/\/vardnadshavare$/);
    await expect(page.getByRole('heading', { name: 'Idun Öberg' })).toBeVisible();
    await expect(page.getByText(`Användarnamn: ${idun}`)).toBeVisible();
    await expectAccessible(page, '/vardnadshavare med en elev från klasslista');

    // Idun signs in with the username and the password her guardian chose.
    await signedOut(page);
    await page.goto('/login');
    await expect(page.getByLabel('E-post eller användarnamn')).toBeVisible();
    await page.getByLabel('E-post eller användarnamn').fill(idun);
    await page.getByLabel('Lösenord', { exact: true }).fill('iduns-losen-1');
    await page.getByRole('button', { name: 'Logga in', exact: true }).last().click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Hej, Idun!' })).toBeVisible();

    // Tore chooses a password with the slip's code, and is signed in; his link waits for a guardian.
    await signedOut(page);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Har du en inloggningslapp?' }).click();
    await expect(page.getByRole('heading', { name: 'Första inloggningen' })).toBeVisible();
    await expectAccessible(page, '/forsta-inloggning');
    await page.getByLabel('Användarnamn').fill(tore);
    await page.getByLabel('Engångskod').fill(code!);
    await page.getByLabel('Nytt lösenord').fill('tores-losen-1');
    await page.getByRole('button', { name: 'Spara lösenord och logga in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Väntar på godkännande från vårdnadshavare' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Kopiera länk' })).toHaveCount(0);
    // And signs in with it next time.
    expect(await apiToken(page.request, tore, 'tores-losen-1')).toBeTruthy();
  });
});
