import type { Tx } from '../../db/client.js';
import { guardianLinks } from '../../db/schema.js';
import { portal, renderMail } from '../../lib/mail-template.js';
import type { Mail } from '../../lib/mailer.js';
import { randomToken, sha256 } from '../../lib/random-codes.js';
import { enqueueMails } from '../../db/mail-outbox.js';

/** How long a guardian's consent link works (decision 031): a parent reads mail in days, not minutes. */
export const CONSENT_CODE_TTL_DAYS = 7;

/**
 * The guardian's Swedish mail with the link. What the child typed (their name) and the group's
 * name come after the portal's own words, in the subject never (issue 28): a name such as
 * "Vinn 5000 kr! Logga in på …" must not read as the portal's message or a mail's subject.
 */
export function guardianConsentMail(options: {
  childName: string;
  groupName: string;
  guardianEmail: string;
  link: string;
  publicUrl: string;
  /** Added by the teacher from a class list (issue 31), not registered by the child. */
  addedFromClassList?: boolean;
}): Mail & { link: string } {
  const intro = options.addedFromClassList
    ? [
        `Läraren eller ledaren för ${options.groupName} har lagt till ”${options.childName}” på Säljportalen, för att sälja tillsammans med gruppen, och angav dig som vårdnadshavare.`,
        'Barnet får ett användarnamn i stället för en e-postadress. Innan barnet kan använda tjänsten behöver en vårdnadshavare godkänna kontot, välja barnets lösenord och hur barnets namn ska visas för köpare. Tills dess är den personliga säljlänken inte aktiv och barnet syns inte i någon topplista.',
      ]
    : [
        `Ett barn har skapat ett konto på Säljportalen med namnet ”${options.childName}”, för att sälja tillsammans med ${options.groupName}, och angav dig som vårdnadshavare.`,
        'Barn under 13 år behöver en vårdnadshavares godkännande för att använda tjänsten. Tills du har godkänt kan barnet logga in, men den personliga säljlänken är inte aktiv och barnet syns inte i någon topplista.',
      ];
  return {
    to: options.guardianEmail.trim(),
    link: options.link,
    ...renderMail({
      subject: portal`Ett barn vill gå med i Säljportalen – ditt godkännande behövs`,
      greeting: portal`Hej!`,
      blocks: [
        ...intro,
        `Öppna länken nedan för att se vilka uppgifter vi sparar om barnet och varför, och för att godkänna eller avböja. Länken fungerar en gång och i ${CONSENT_CODE_TTL_DAYS} dagar.`,
        { action: { label: 'Granska och godkänn', url: options.link } },
        'Avböjer du tas barnets konto bort. Godkänner du skapar du ett eget konto med den här e-postadressen (eller loggar in med det), så att du kan följa barnets försäljning och när som helst återkalla samtycket.',
        { action: { label: 'Så hanterar vi personuppgifter', url: `${options.publicUrl}/integritet` } },
        'Känner du inte igen det här kan du bortse från mejlet. Utan ditt godkännande blir säljlänken aldrig aktiv.',
      ],
    }),
  };
}

/**
 * Asks a guardian to consent to an under-13 seller's account (issue 22): a single-use code, stored
 * only as its hash and good for CONSENT_CODE_TTL_DAYS, and the guardian's mail with the link,
 * queued in the registration's transaction. How many are sent is limited before (invite-limits.ts).
 */
export async function inviteGuardian(
  tx: Tx,
  options: {
    childUserId: number;
    childName: string;
    groupName: string;
    guardianEmail: string;
    publicUrl: string;
    addedFromClassList?: boolean;
  },
): Promise<void> {
  const code = randomToken();
  await tx.insert(guardianLinks).values({
    childUserId: options.childUserId,
    guardianEmail: options.guardianEmail.trim(),
    codeHash: sha256(code),
    codeExpiresAt: new Date(Date.now() + CONSENT_CODE_TTL_DAYS * 24 * 60 * 60_000),
  });
  const link = `${options.publicUrl}/vardnadshavare/godkann?code=${encodeURIComponent(code)}`;
  await enqueueMails(tx, [guardianConsentMail({ ...options, link })]);
}
