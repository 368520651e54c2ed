import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BUYER_PAGE_CSP, buyerPageHtml, supportHeading } from './buyer-pages.js';
import type { BuyerPage, OpenBuyerPage } from './load-buyer-page.js';

const SHOP = 'https://butik.example.se';
const open: OpenBuyerPage = {
  kind: 'open',
  shopRef: 'ABC123',
  sellerName: 'Alva',
  groupName: 'Klass 6B',
  goal: { amountOre: 1_000_000, purpose: 'Lägerskola', endsOn: '2026-12-20', raisedOre: 320_000 },
  campaign: { daysLeft: 14, endsOn: '2026-12-12' },
  greeting: 'Tack för att ni stöttar oss!\nVi åker till fjällen i vår.',
  today: '2026-11-29',
};
const everyKind: BuyerPage[] = [
  open,
  { kind: 'unknown' },
  { kind: 'retired' },
  { kind: 'awaiting_guardian_consent' },
  { kind: 'campaign_upcoming', startsOn: '2026-12-01', today: '2026-11-29' },
  { kind: 'campaign_ended' },
];

describe('buyer pages', () => {
  it.each(everyKind)('$kind is allowed by the one policy: its inline style is the one hashed, and no script is on it', (page) => {
    const { html } = buyerPageHtml(page, SHOP);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(BUYER_PAGE_CSP).toContain(`style-src 'sha256-${crypto.createHash('sha256').update(style).digest('base64')}'`);
    expect(html).not.toMatch(/<script|style="/);
    expect(html).toContain('<meta name="robots" content="noindex">');
  });

  it('leads to the shop only from an open page, with the code as today', () => {
    for (const page of everyKind) {
      const { html } = buyerPageHtml(page, SHOP);
      expect(html.includes('href='), page.kind).toBe(page.kind === 'open');
    }
    expect(buyerPageHtml(open, SHOP).html).toContain(`<a class="shop" href="${SHOP}/?ref=ABC123" rel="noreferrer">Till butiken</a>`);
  });

  it('answers 404 where there is no link (any longer), 200 for a link that exists', () => {
    expect(everyKind.map((page) => [page.kind, buyerPageHtml(page, SHOP).status])).toEqual([
      ['open', 200],
      ['unknown', 404],
      ['retired', 404],
      ['awaiting_guardian_consent', 200],
      ['campaign_upcoming', 200],
      ['campaign_ended', 200],
    ]);
  });

  it('shows whom, the class goal with its progress, the days left and the teacher’s text', () => {
    const { html } = buyerPageHtml(open, SHOP);
    expect(html).toContain('<h1>Du stöttar Alva i Klass 6B</h1>');
    expect(html).toContain('Klassens mål: Lägerskola');
    expect(html).toContain('3\u00a0200\u00a0kr insamlat av 10\u00a0000\u00a0kr (32 %)');
    expect(html).toContain('<progress aria-labelledby="goal-progress" max="1000000" value="320000"></progress>');
    expect(html).toContain('14 dagar kvar – sista dagen är 12 december');
    expect(html).toContain('Tack för att ni stöttar oss!\nVi åker');
  });

  it('leaves out what the class has not set, and says the last day plainly', () => {
    const bare = buyerPageHtml({ ...open, goal: null, greeting: null, campaign: { daysLeft: 1, endsOn: '2026-11-29' } }, SHOP).html;
    expect(bare).not.toContain('Klassens mål');
    expect(bare).not.toContain('class="greeting"');
    expect(bare).toContain('<p class="days">Sista dagen i dag!</p>');
  });

  it('escapes every text a person wrote', () => {
    const { html } = buyerPageHtml(
      {
        ...open,
        sellerName: '<b>Alva</b>',
        groupName: '6B & "co"',
        greeting: '<script>x</script>',
        goal: { ...open.goal!, purpose: '<i>' },
      },
      SHOP,
    );
    expect(html).toContain('Du stöttar &lt;b&gt;Alva&lt;/b&gt; i 6B &amp; &quot;co&quot;');
    expect(html).not.toMatch(/<script>|<i>|<b>/);
  });

  it('names a protected pupil without the class, and the class alone on its own link', () => {
    expect(supportHeading({ sellerName: 'Stjärnan', groupName: null })).toBe('Du stöttar Stjärnan');
    expect(supportHeading({ sellerName: null, groupName: 'Klass 6B' })).toBe('Du stöttar Klass 6B');
  });
});
