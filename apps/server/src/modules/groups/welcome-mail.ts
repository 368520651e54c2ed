import type { TMembershipRole } from '@saljportalen/contract';
import type { Mail } from '../../lib/mailer.js';

/**
 * Tells a person an account was made for them. Nobody sends a password by mail: whoever has no
 * password of their own is sent to "glömt lösenord" to choose one. Queued in the transaction that
 * made the account (plugins/mail-outbox.ts).
 */
export function welcomeMail(options: {
  to: string;
  fullName: string;
  groupName: string;
  role: TMembershipRole;
  publicUrl: string;
  passwordGivenByAdmin: boolean;
}): Mail {
  const forgotPasswordLink = `${options.publicUrl}/auth/forgot-password`;
  const roleText = options.role === 'admin' ? 'administratör' : 'säljare';
  const passwordSteps = options.passwordGivenByAdmin
    ? [
        'Lösenordet får du av den som skapade gruppen. Vill du hellre välja ett eget lösenord öppnar du länken nedan,',
        'skriver in din e-postadress och följer länken i mejlet du då får:',
      ]
    : ['Välj ditt lösenord så här: öppna länken nedan, skriv in din e-postadress', `(${options.to}) och följ länken i mejlet du då får:`];
  return {
    to: options.to,
    subject: 'Välkommen till Säljportalen',
    link: forgotPasswordLink,
    text: [
      `Hej ${options.fullName.split(' ')[0]}!`,
      '',
      `Du har lagts till i ${options.groupName} på Säljportalen som ${roleText}.`,
      '',
      ...passwordSteps,
      '',
      forgotPasswordLink,
      '',
      `Sedan loggar du in på ${options.publicUrl}/login.`,
      '',
      'Hälsningar,',
      'Säljportalen',
    ].join('\n'),
  };
}
