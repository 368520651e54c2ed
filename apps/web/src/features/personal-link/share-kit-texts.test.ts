import { describe, expect, it } from 'vitest';
import { shareKitBlocked } from './share-kit-blocked';
import { linkOwner, shareImageLines, shareKitTexts, type ShareKitInput } from './share-kit-texts';

const link = 'https://saljportalen.se/s/DEMO0001';
const today = '2026-11-29';
const goal = { purpose: 'Klassresa till Liseberg', amount: 60000 };
const running = { starts_on: '2026-11-16', ends_on: '2026-12-14', days_left: 16, state: 'running' as const };
const base: ShareKitInput = { link, sellerName: 'Alva', goal: null, campaign: null, today };

describe('shareKitTexts', () => {
  it('without a goal or a campaign: a general appeal in the pupil’s voice, with the link, signed with the name for buyers', () => {
    const texts = shareKitTexts(base);
    expect(texts.sms).toBe(
      `Hej! Jag säljer hållbara produkter för att samla in pengar till min klass. Handla via min länk: ${link}\nTack för ditt stöd! /Alva`,
    );
    expect(texts.whatsapp).toContain(link);
    expect(texts.emailSubject).toBe('Stöd vår insamling');
    expect(texts.emailBody).toContain(`\n${link}\n`);
    expect(texts.emailBody.endsWith('Hälsningar, Alva')).toBe(true);
    expect(texts.note).not.toContain('Sista dagen');
  });

  it('with the class goal: its purpose and target, in every text', () => {
    const texts = shareKitTexts({ ...base, goal });
    for (const text of [texts.sms, texts.whatsapp, texts.emailBody, texts.note]) {
      expect(text).toContain('Vi samlar till: Klassresa till Liseberg. Målet är 60\u00a0000\u00a0kr.');
    }
    // In bold in a WhatsApp chat.
    expect(texts.whatsapp).toContain('*Vi samlar till: Klassresa till Liseberg. Målet är 60\u00a0000\u00a0kr.*');
    expect(texts.emailSubject).toBe('Stöd vår insamling till Klassresa till Liseberg');
  });

  it('with a running campaign: its last day, without the year in the same year', () => {
    const texts = shareKitTexts({ ...base, goal, campaign: running });
    expect(texts.sms).toContain('Sista dagen att handla är 14 december.');
    expect(texts.emailBody).toContain('Sista dagen att handla är 14 december.');
    expect(texts.note).toContain('Sista dagen att handla är 14 december.');
    expect(shareKitTexts({ ...base, campaign: { ...running, ends_on: '2027-01-10' } }).sms).toContain('10 januari 2027');
  });

  it('on the campaign’s last day says it is today', () => {
    const texts = shareKitTexts({ ...base, campaign: { ...running, ends_on: today, days_left: 1 } });
    expect(texts.sms).toContain('I dag är sista dagen att handla!');
  });

  it('never says what the pupil has sold or earned, and names no one but the name for buyers', () => {
    const texts = shareKitTexts({ ...base, sellerName: 'Stjärnskottet', goal, campaign: running });
    const all = Object.values(texts).join('\n');
    // The class target is the only amount.
    expect(all.match(/\d[\d\u00a0]*\u00a0kr/g)?.every((amount) => amount === '60\u00a0000\u00a0kr')).toBe(true);
    expect(all).not.toMatch(/Alva|intjän|sålt/);
    expect(all).toContain('Stjärnskottet');
  });

  it('without a name for buyers: unsigned, and the link is “min länk”', () => {
    const texts = shareKitTexts({ ...base, sellerName: '' });
    expect(texts.sms.endsWith('Tack för ditt stöd!')).toBe(true);
    expect(texts.emailBody.endsWith('Tack för att du stöttar oss!')).toBe(true);
    expect(texts.noteTitle).toBe('Handla via min länk');
  });
});

describe('the names’ Swedish genitive', () => {
  it('adds an s, but not to a name ending in s, x or z', () => {
    expect(linkOwner('Alva')).toBe('Alvas länk');
    expect(linkOwner('Jonas')).toBe('Jonas länk');
    expect(linkOwner('Max')).toBe('Max länk');
    expect(shareKitTexts(base).noteTitle).toBe('Handla via Alvas länk');
    expect(shareImageLines({ ...base, sellerName: 'Max' }).call).toBe('Skanna och handla via Max länk');
  });
});

describe('shareImageLines', () => {
  it('shows the class goal when there is one, with the last day of a campaign', () => {
    expect(shareImageLines({ ...base, goal, campaign: running })).toEqual({
      heading: 'Vi samlar till',
      headline: 'Klassresa till Liseberg',
      target: 'Mål: 60\u00a0000\u00a0kr',
      call: 'Skanna och handla via Alvas länk',
      lastDay: 'Sista dagen: 14 december',
    });
  });

  it('makes a general appeal without a goal', () => {
    const lines = shareImageLines(base);
    expect(lines.heading).toBe('Stöd vår insamling');
    expect(lines.target).toBeNull();
    expect(lines.lastDay).toBeNull();
  });
});

describe('shareKitBlocked', () => {
  it('offers the kit without a campaign and while it runs', () => {
    expect(shareKitBlocked(null, today)).toBeNull();
    expect(shareKitBlocked(running, today)).toBeNull();
  });

  it('says when a campaign has not started, or has ended, instead of inviting to share a dead link', () => {
    expect(shareKitBlocked({ ...running, starts_on: '2026-12-01', state: 'upcoming' }, today)).toMatchObject({
      title: 'Försäljningen har inte startat än',
      text: expect.stringContaining('startar 1 december') as string,
    });
    expect(shareKitBlocked({ ...running, ends_on: '2026-11-20', days_left: 0, state: 'ended' }, today)?.title).toBe(
      'Försäljningen är avslutad',
    );
  });
});
