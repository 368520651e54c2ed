/** spec §2: the sharing message is a fixed Swedish sales appeal. */
export const SALES_APPEAL =
  'Hej! Jag säljer hållbara produkter för att samla in pengar till min klass eller förening. Handla via min personliga länk – varje köp gör skillnad. Tack för ditt stöd!';

export const SHARE_TITLE = 'Stöd vår insamling';

/**
 * The appeal signed with the name buyers see (issue 22: as the family chose it, only the alias for
 * a protected pupil; the server decides it, `public_seller_name` of the summary). Unsigned without
 * one (a summary kept offline from before the name was sent).
 */
export const shareMessage = (sellerName: string) => (sellerName ? `${SALES_APPEAL}\n\nHälsningar, ${sellerName}` : SALES_APPEAL);

/** The signed appeal followed by the link, as a text message or chat post carries it. */
export const shareText = (link: string, sellerName: string) => `${shareMessage(sellerName)}\n${link}`;

export interface ShareTarget {
  id: 'sms' | 'whatsapp' | 'facebook' | 'email';
  label: string;
  href: string;
  /** Opens a web page rather than an app on the device. */
  external: boolean;
}

// `sms:?&body=` is the form both iOS and Android read without a recipient.
export const smsHref = (text: string) => `sms:?&body=${encodeURIComponent(text)}`;
export const whatsAppHref = (text: string) => `https://wa.me/?text=${encodeURIComponent(text)}`;
export const mailtoHref = (subject: string, body: string) =>
  `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;

/** Where a seller can post the link: SMS and e-mail open the device's app, the rest a share page. */
export function shareTargets(link: string, sellerName: string): ShareTarget[] {
  const text = shareText(link, sellerName);
  return [
    { id: 'sms', label: 'SMS', href: smsHref(text), external: false },
    { id: 'whatsapp', label: 'WhatsApp', href: whatsAppHref(text), external: true },
    { id: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(link)}`, external: true },
    {
      id: 'email',
      label: 'E-post',
      href: mailtoHref(SHARE_TITLE, `${shareMessage(sellerName)}\n\n${link}`),
      external: false,
    },
  ];
}
