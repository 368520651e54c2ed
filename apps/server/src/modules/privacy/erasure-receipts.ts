import { formatDateTime } from '../../lib/format.js';
import { portal, renderMail, type PortalText } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';

export type ErasureReason = 'self' | 'superadmin' | 'guardian_declined' | 'guardian_withdrew' | 'retention';

/** Why a child's account went, as a guardian reads it in the receipt. */
const WHAT_HAPPENED: Record<ErasureReason, { subject: PortalText; line: (when: string, groups: string) => string }> = {
  guardian_withdrew: {
    subject: portal`Samtycket är återkallat och barnets konto är borttaget`,
    line: (when, groups) => `Samtycket för barnets konto i ${groups} återkallades ${when}, och kontot är nu borttaget.`,
  },
  self: {
    subject: portal`Barnets konto på Säljportalen är borttaget`,
    line: (when, groups) => `Barnet raderade själv sitt konto i ${groups} ${when}.`,
  },
  superadmin: {
    subject: portal`Barnets konto på Säljportalen är borttaget`,
    line: (when, groups) => `Säljportalen raderade barnets konto i ${groups} ${when}.`,
  },
  retention: {
    subject: portal`Barnets konto på Säljportalen är borttaget`,
    line: (when, groups) =>
      `Barnets konto i ${groups} raderades ${when}, eftersom det inte hade använts på två år och gruppens försäljning är avslutad.`,
  },
  guardian_declined: {
    subject: portal`Barnets konto på Säljportalen är borttaget`,
    line: (when) => `Godkännandet avböjdes ${when}, och barnets konto är borttaget.`,
  },
};

/**
 * The receipt each guardian who approved gets when the child's account goes (issue 33 point 7).
 * It names the child's groups, never the child: the erasure has just removed every trace of the
 * name, and the receipt must not put it back in the outbox (decision 064).
 */
export function erasureReceipt(options: {
  guardian: { email: string; fullName: string };
  reason: ErasureReason;
  groups: string[];
  at: Date;
}): Mail {
  const { subject, line } = WHAT_HAPPENED[options.reason];
  const groups = options.groups.join(', ') || 'gruppen';
  return {
    to: options.guardian.email,
    ...renderMail({
      subject,
      greeting: portal`Hej ${options.guardian.fullName.trim().split(/\s+/)[0] ?? ''}!`,
      blocks: [
        line(formatDateTime(options.at), groups),
        'Allt som sparades om barnet är borttaget: namn, e-postadress, inloggningar och klick på den personliga länken. Försäljningen finns kvar i gruppens resultat, utan namn, så att klassens summa och utbetalning stämmer.',
        'Du behöver inte göra något mer. Ditt eget konto finns kvar; vill du ta bort det också gör du det under Kontoinställningar.',
        'Har du frågor, kontakta barnets lärare eller ledare.',
      ],
    }),
  };
}
