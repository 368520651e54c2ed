import { formatDateTime } from '../../lib/format.js';
import { portal, renderMail } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';

/**
 * The guardian's receipt of a consent (issue 33 point 7): what was approved, when, what it means,
 * and how to take it back. The child's name follows the portal's words, never in the subject.
 */
export function approvalReceipt(options: {
  guardian: { email: string; fullName: string };
  childName: string;
  groups: string[];
  at: Date;
  publicUrl: string;
}): Mail {
  const groups = options.groups.join(', ') || 'sin grupp';
  return {
    to: options.guardian.email,
    link: `${options.publicUrl}/vardnadshavare`,
    ...renderMail({
      subject: portal`Du har godkänt ett barns konto på Säljportalen`,
      greeting: portal`Hej ${options.guardian.fullName.trim().split(/\s+/)[0] ?? ''}!`,
      blocks: [
        `Du godkände ${formatDateTime(options.at)} kontot som ${options.childName} har skapat för att sälja med ${groups}. Barnets personliga säljlänk är nu aktiv.`,
        'Som vårdnadshavare kan du logga in och följa barnets försäljning, välja vilket namn köpare ser, ladda ner allt som sparas om barnet och när som helst återkalla samtycket. Då tas barnets konto bort.',
        { action: { label: 'Till dina barn', url: `${options.publicUrl}/vardnadshavare` } },
        'Var det inte du som godkände? Kontakta barnets lärare eller ledare.',
      ],
    }),
  };
}
