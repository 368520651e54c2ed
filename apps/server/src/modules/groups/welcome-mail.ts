import type { TMembershipRole } from '@saljportalen/contract';
import { portal, renderMail } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';
import { RESET_CODE_TTL_MINUTES } from '../auth/password-reset.js';

/**
 * Tells a person an account was made for them, with a single-use link to choose their password
 * right away ('Välj lösenord', a reset code that lives as long as any: issue 19). Nobody sends a
 * password by mail; an administrator whose password the superadmin chose may keep that one.
 * Queued in the transaction that made the account (db/mail-outbox.ts).
 */
export function welcomeMail(options: {
  to: string;
  fullName: string;
  groupName: string;
  role: TMembershipRole;
  publicUrl: string;
  /** From `issuePasswordLink(…, { welcome: true })`. */
  choosePasswordLink: string;
  passwordGivenByAdmin: boolean;
}): Mail {
  const roleText = options.role === 'admin' ? 'administratör' : 'säljare';
  const passwordStep = options.passwordGivenByAdmin
    ? 'Lösenordet får du av den som skapade gruppen. Vill du hellre välja ett eget gör du det med knappen nedan.'
    : 'Välj ditt lösenord med knappen nedan. Sedan loggar du in med din e-postadress och lösenordet.';
  return {
    to: options.to,
    link: options.choosePasswordLink,
    ...renderMail({
      subject: portal`Välkommen till Säljportalen`,
      greeting: portal`Hej ${options.fullName.split(' ')[0]!}!`,
      blocks: [
        `Du har lagts till i ${options.groupName} på Säljportalen som ${roleText}.`,
        passwordStep,
        { action: { label: 'Välj lösenord', url: options.choosePasswordLink } },
        `Länken fungerar en gång och i ${RESET_CODE_TTL_MINUTES} minuter. Har den hunnit gå ut begär du en ny på ${options.publicUrl}/auth/forgot-password med din e-postadress (${options.to}).`,
        `Du loggar in på ${options.publicUrl}/login.`,
      ],
    }),
  };
}
