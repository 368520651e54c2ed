/** spec §2: the sharing message is a fixed Swedish sales appeal. */
export const SALES_APPEAL =
  'Hej! Jag säljer hållbara produkter för att samla in pengar till min klass eller förening. Handla via min personliga länk – varje köp gör skillnad. Tack för ditt stöd!';

export const SHARE_TITLE = 'Stöd vår insamling';

/** The appeal followed by the link, as a text message or chat post carries it. */
export const shareText = (link: string) => `${SALES_APPEAL} ${link}`;

export interface ShareTarget {
  id: 'sms' | 'whatsapp' | 'facebook' | 'email';
  label: string;
  href: string;
  /** Opens a web page rather than an app on the device. */
  external: boolean;
}

/** Where a seller can post the link: SMS and e-mail open the device's app, the rest a share page. */
export function shareTargets(link: string): ShareTarget[] {
  const text = encodeURIComponent(shareText(link));
  return [
    // `sms:?&body=` is the form both iOS and Android read without a recipient.
    { id: 'sms', label: 'SMS', href: `sms:?&body=${text}`, external: false },
    { id: 'whatsapp', label: 'WhatsApp', href: `https://wa.me/?text=${text}`, external: true },
    { id: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(link)}`, external: true },
    {
      id: 'email',
      label: 'E-post',
      href: `mailto:?subject=${encodeURIComponent(SHARE_TITLE)}&body=${encodeURIComponent(`${SALES_APPEAL}\n\n${link}`)}`,
      external: false,
    },
  ];
}
