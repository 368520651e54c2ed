import { describe, expect, it } from 'vitest';
import type { Mail } from '../../lib/mailer.js';
import { accountChangeMails, maskEmail } from './send-account-change-mail.js';

const publicUrl = 'https://portal.skolan.se';

describe('accountChangeMails', () => {
  it('writes Swedish notices that carry no secret, only the way to act if it was not the owner', () => {
    const sent: Mail[] = (['password_reset', 'password_changed'] as const).flatMap((kind) =>
      accountChangeMails({ change: { kind }, email: 'noah@demo.se', fullName: 'Noah Nilsson', publicUrl }),
    );
    expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([
      ['noah@demo.se', 'Ditt lösenord på Säljportalen har ändrats'],
      ['noah@demo.se', 'Ditt lösenord på Säljportalen har ändrats'],
    ]);
    for (const mail of sent) {
      expect(mail.text).toMatch(/^Hej Noah!/);
      expect(mail.text).toContain(`${publicUrl}/auth/forgot-password`);
      expect(mail.text).toMatch(/ändrades \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    }
    expect(sent[0]!.text).toContain('loggats ut på alla enheter');
  });

  it('tells both the old and the new address of a changed e-mail address, masking the new one in the old inbox', () => {
    const sent = accountChangeMails({
      change: { kind: 'email_changed', oldEmail: 'karin.larare@bjorkskolan.se', newEmail: 'ny@skolan.se' },
      email: 'ny@skolan.se',
      fullName: 'Karin Lärare',
      publicUrl,
    });
    expect(sent.map((mail) => mail.to)).toEqual(['karin.larare@bjorkskolan.se', 'ny@skolan.se']);
    expect(sent[0]!.text).toContain('n•••@skolan.se');
    expect(sent[0]!.text).not.toContain('ny@skolan.se');
  });
});

describe('maskEmail', () => {
  it('keeps the first character and the domain', () => {
    expect(maskEmail('karin.larare@bjorkskolan.se')).toBe('k•••@bjorkskolan.se');
    expect(maskEmail('a@b.se')).toBe('a•••@b.se');
    expect(maskEmail('utan-snabel-a')).toBe('•••');
  });
});
