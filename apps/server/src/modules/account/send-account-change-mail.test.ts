import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { Mail } from '../../lib/mailer.js';
import { maskEmail, sendAccountChangeMail } from './send-account-change-mail.js';

const publicUrl = 'https://portal.skolan.se';

describe('sendAccountChangeMail', () => {
  it('never fails when the mail server refuses, and logs the reason without any address', async () => {
    const error = Object.assign(new Error('550 5.1.1 <karin.larare@bjorkskolan.se>: Recipient address rejected (ny@skolan.se)'), {
      code: 'EENVELOPE',
    });
    const mailer = { send: vi.fn().mockRejectedValue(error) };
    const log = { error: vi.fn() } as unknown as FastifyBaseLogger;

    await expect(
      sendAccountChangeMail(mailer, log, {
        change: { kind: 'email_changed', oldEmail: 'karin.larare@bjorkskolan.se', newEmail: 'ny@skolan.se' },
        email: 'ny@skolan.se',
        fullName: 'Karin Lärare',
        publicUrl,
      }),
    ).resolves.toBeUndefined();

    expect(mailer.send).toHaveBeenCalledTimes(2);
    expect(log.error).toHaveBeenCalledTimes(2);
    const logged = JSON.stringify(vi.mocked(log.error).mock.calls);
    expect(logged).not.toMatch(/@/);
    expect(logged).toContain('Recipient address rejected');
    expect(logged).toContain('EENVELOPE');
  });

  it('writes Swedish notices that carry no secret, only the way to act if it was not the owner', async () => {
    const sent: Mail[] = [];
    const mailer = { send: async (mail: Mail) => void sent.push(mail) };
    const log = { error: vi.fn() } as unknown as FastifyBaseLogger;
    for (const kind of ['password_reset', 'password_changed'] as const) {
      await sendAccountChangeMail(mailer, log, { change: { kind }, email: 'noah@demo.se', fullName: 'Noah Nilsson', publicUrl });
    }
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
    expect(log.error).not.toHaveBeenCalled();
  });
});

describe('maskEmail', () => {
  it('keeps the first character and the domain', () => {
    expect(maskEmail('karin.larare@bjorkskolan.se')).toBe('k•••@bjorkskolan.se');
    expect(maskEmail('a@b.se')).toBe('a•••@b.se');
    expect(maskEmail('utan-snabel-a')).toBe('•••');
  });
});
