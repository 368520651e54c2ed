import { formatDateTime } from '../../lib/format.js';
import { portal, renderMail, type MailBlock } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';

export type AccountChange =
  { kind: 'password_reset' } | { kind: 'password_changed' } | { kind: 'email_changed'; oldEmail: string | null; newEmail: string };

/** `k•••@skolan.se`: enough for the owner to recognise the address, not enough to hand it out. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '•••' : `${email[0]}•••${email.slice(at)}`;
}

function notices(change: AccountChange, person: { fullName: string; email: string }, publicUrl: string, at: Date): Mail[] {
  const greeting = portal`Hej ${person.fullName.split(' ')[0]!}!`;
  const when = formatDateTime(at);
  const forgotPassword = `${publicUrl}/auth/forgot-password`;
  const ifNotYou: MailBlock[] = [
    'Var det inte du? Då kan någon annan ha kommit åt ditt konto. Återställ lösenordet direkt, och berätta det för gruppens administratör (din lärare eller ledare).',
    { action: { label: 'Återställ lösenordet', url: forgotPassword } },
  ];

  switch (change.kind) {
    case 'password_reset':
    case 'password_changed':
      return [
        {
          to: person.email,
          link: forgotPassword,
          ...renderMail({
            subject: portal`Ditt lösenord på Säljportalen har ändrats`,
            greeting,
            blocks: [
              change.kind === 'password_reset'
                ? `Lösenordet till ditt konto på Säljportalen ändrades ${when} med en återställningslänk. Du har loggats ut på alla enheter.`
                : `Lösenordet till ditt konto på Säljportalen ändrades ${when} under Kontoinställningar.`,
              'Var det du behöver du inte göra något mer.',
              ...ifNotYou,
            ],
          }),
        },
      ];
    case 'email_changed':
      return [
        // An account that had no address (a class-list pupil, issue 31) has no old inbox to tell.
        ...(change.oldEmail === null
          ? []
          : [
              {
                // The old inbox is where an owner whose account was taken over will still be reading.
                to: change.oldEmail,
                ...renderMail({
                  subject: portal`E-postadressen till ditt konto på Säljportalen har ändrats`,
                  greeting,
                  blocks: [
                    `E-postadressen till ditt konto på Säljportalen ändrades ${when} från den här adressen till ${maskEmail(change.newEmail)}. Du loggar nu in med den nya adressen, och mejl från Säljportalen skickas dit.`,
                    'Var det du behöver du inte göra något mer.',
                    'Var det inte du? Då kan någon annan ha kommit åt ditt konto och du kan inte längre återställa lösenordet från den här adressen. Kontakta gruppens administratör (din lärare eller ledare) direkt.',
                  ],
                }),
              },
            ]),
        {
          to: change.newEmail,
          link: forgotPassword,
          ...renderMail({
            subject: portal`Det här är nu e-postadressen till ditt konto på Säljportalen`,
            greeting,
            blocks: [
              `Den här adressen blev ${when} e-postadressen till ditt konto på Säljportalen. Du loggar in med den från och med nu.`,
              ...ifNotYou,
            ],
          }),
        },
      ];
  }
}

/**
 * The notices that tell the owner of an account that its password or e-mail address changed, so
 * that a change they did not make does not go unnoticed. They are queued in the transaction that
 * makes the change (db/mail-outbox.ts): the change never waits for, or fails with, a mail
 * server, and a mail server that is down does not lose them.
 */
export function accountChangeMails(options: { change: AccountChange; fullName: string; email: string | null; publicUrl: string }): Mail[] {
  // A class-list pupil has no address of their own (issue 31): no mail to them.
  if (options.email === null) return [];
  return notices(options.change, { fullName: options.fullName, email: options.email }, options.publicUrl, new Date());
}
