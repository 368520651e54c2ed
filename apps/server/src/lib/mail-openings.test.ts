import { describe, expect, it } from 'vitest';
import { accountChangeMails } from '../modules/auth/send-account-change-mail.js';
import { welcomeMail } from '../modules/groups/welcome-mail.js';
import { guardianConsentMail } from '../modules/auth/invite-guardian.js';
import { saleMail } from '../modules/notifications/sale-mail.js';
import { weeklySummaryMail } from '../modules/notifications/weekly-summary.js';
import type { Mail } from './mailer.js';
import { portal } from './mail-template.js';

/**
 * Issue 28: no mail's subject or first line begins with text someone else chose. Every template
 * the portal has is filled with a name and a group name that read as spam, and each subject, each
 * text part's first line and the HTML's first heading must begin with the portal's own words.
 */
const SPAM = 'Vinn 5000 kr! Logga in på exempel';
const publicUrl = 'https://portal.skolan.se';
const figures = {
  week: { salesOre: 24_900, commissionOre: 6_225, ordersCount: 1 },
  allTime: { salesOre: 99_600, commissionOre: 24_900, ordersCount: 4 },
  participation: { started: 3, members: 10 },
};

const MAILS: Record<string, Mail[]> = {
  'vårdnadshavarens godkännande': [
    guardianConsentMail({ childName: SPAM, groupName: SPAM, guardianEmail: 'mamma@demo.se', link: `${publicUrl}/x`, publicUrl }),
  ],
  välkommen: [
    welcomeMail({
      to: 'ny@demo.se',
      fullName: SPAM,
      groupName: SPAM,
      role: 'seller',
      publicUrl,
      choosePasswordLink: `${publicUrl}/x`,
      passwordGivenByAdmin: false,
    }),
  ],
  'ny försäljning (säljaren och vårdnadshavaren)': [false, true].map((guardian) =>
    saleMail({
      to: { email: 'mamma@demo.se', fullName: SPAM, guardian },
      seller: { fullName: SPAM },
      sold: [
        { groupName: SPAM, sinceOre: 24_900, totalOre: 99_600 },
        { groupName: 'Klass 6B', sinceOre: 100, totalOre: 100 },
      ],
      publicUrl,
    }),
  ),
  veckosammanfattning: [
    weeklySummaryMail({
      to: { email: 'larare@demo.se', fullName: SPAM },
      week: { from: '2026-11-16', to: '2026-11-22', week: 47 },
      today: '2026-11-23',
      groups: [{ name: SPAM, goal: null, figures }],
      publicUrl,
    }),
  ],
  kontoändringar: [
    ...accountChangeMails({ change: { kind: 'password_changed' }, fullName: SPAM, email: 'a@demo.se', publicUrl }),
    ...accountChangeMails({
      change: { kind: 'email_changed', oldEmail: 'a@demo.se', newEmail: 'b@demo.se' },
      fullName: SPAM,
      email: 'a@demo.se',
      publicUrl,
    }),
  ],
};

describe('the opening of every mail (issue 28)', () => {
  it('never begins a subject or a first line with a name someone else typed', () => {
    for (const [template, mails] of Object.entries(MAILS)) {
      for (const mail of mails) {
        expect(mail.subject, template).not.toMatch(/^\s*Vinn/);
        expect(mail.text.split('\n')[0], template).not.toMatch(/^\s*Vinn/);
        expect(mail.text.split('\n\n')[1], template).not.toMatch(/^\s*Vinn/);
        expect(mail.html!.match(/<h1[^>]*>([^<]*)</)?.[1], template).not.toMatch(/^\s*Vinn/);
      }
    }
  });

  it('the consent mail keeps the child’s name out of the subject altogether', () => {
    const [mail] = MAILS['vårdnadshavarens godkännande']!;
    expect(mail!.subject).not.toContain(SPAM);
    expect(mail!.text).toContain(`”${SPAM}”`);
  });

  it('refuses a subject or greeting that begins with a value, at the call that makes it', () => {
    expect(() => portal`${SPAM} vill gå med`).toThrow(/portalens egna ord/);
    expect(() => portal` ${SPAM}`).toThrow(/portalens egna ord/);
    expect(portal`Hej ${'Åsa'}!`).toBe('Hej Åsa!');
  });
});
