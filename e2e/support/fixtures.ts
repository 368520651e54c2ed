import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'demo1234';
const e2ePort = process.env.E2E_PORT ?? '4173';
export const E2E_DATA_DIR = e2ePort === '4173' ? '.e2e-data' : `.e2e-data-${e2ePort}`;
export const E2E_WEBHOOK_SECRET = 'e2e-webhook-secret';
export const TOKEN_STORAGE_KEY = 'saljportalen.token';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page as it is now (WCAG 2.0–2.2 A and AA) and fails on any serious or
 * critical finding. Evaluated through the DevTools protocol, so the page's CSP stays on.
 */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
  });
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} @ ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
    `tillgänglighetsfel på ${label}`,
  ).toEqual([]);
}

/** Signs in through the login page, as a person would. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Lösenord', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Logga in', exact: true }).last().click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signs in through the API and stores the token, for tests about other things than signing in. */
export async function signInQuickly(page: Page, email: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await page.request.post('/api/auth/login', { data: { email, password } });
  expect(response.ok()).toBe(true);
  const { token } = (await response.json()) as { token: string };
  await page.goto('/login');
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [TOKEN_STORAGE_KEY, token]);
  return token;
}

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  link?: string;
}

/** The newest mail to an address in the server's outbox (DATA_DIR/outbox), waiting for it to arrive. */
export async function latestMailTo(address: string, timeoutMs = 10_000): Promise<OutboxMail> {
  const outbox = path.join(E2E_DATA_DIR, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(outbox)) {
      const mails = fs
        .readdirSync(outbox)
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => JSON.parse(fs.readFileSync(path.join(outbox, file), 'utf8')) as OutboxMail)
        .filter((mail) => mail.to.toLowerCase() === address.toLowerCase());
      if (mails.length > 0) return mails[mails.length - 1]!;
    }
    if (Date.now() > deadline) throw new Error(`inget mejl till ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A unique address per test run and viewport, so the phone and desktop runs do not collide. */
export const uniqueEmail = (prefix: string, project: string) => `${prefix}.${project}.${Date.now()}@e2e.se`;
