import { describe, expect, it } from 'vitest';
import { SALES_APPEAL, shareMessage, shareTargets, shareText } from './share-links';

const link = 'https://saljportalen.se/s/DEMO0001';

describe('shareTargets', () => {
  const byId = Object.fromEntries(shareTargets(link, 'Stjärnskottet').map((target) => [target.id, target]));

  it('puts the appeal, signed with the name buyers see, and the link in the SMS body', () => {
    expect(byId.sms!.href.startsWith('sms:?&body=')).toBe(true);
    expect(decodeURIComponent(byId.sms!.href.slice('sms:?&body='.length))).toBe(`${SALES_APPEAL}\n\nHälsningar, Stjärnskottet\n${link}`);
  });

  it('signs the e-mail with the same name', () => {
    expect(decodeURIComponent(byId.email!.href)).toContain(`${shareMessage('Stjärnskottet')}\n\n${link}`);
  });

  it('shares the link itself on Facebook and the whole message on WhatsApp', () => {
    expect(new URL(byId.facebook!.href).searchParams.get('u')).toBe(link);
    expect(new URL(byId.whatsapp!.href).searchParams.get('text')).toBe(shareText(link, 'Stjärnskottet'));
  });

  it('keeps å, ä and ö intact through the encoding', () => {
    expect(decodeURIComponent(byId.email!.href)).toContain('Stöd vår insamling');
    expect(decodeURIComponent(byId.email!.href)).toContain('hållbara');
  });
});
