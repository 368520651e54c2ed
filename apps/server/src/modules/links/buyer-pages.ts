import { campaignText, formatCampaignDay } from '@saljportalen/contract';
import crypto from 'node:crypto';
import { formatOreAsSek } from '../../lib/format.js';
import type { BuyerPage, OpenBuyerPage } from './load-buyer-page.js';

/**
 * The buyer pages (issue 32, decision 073): small, server-made, one inline style and no script, so
 * a grandparent's old phone on a slow connection shows them at once. Every page says who is
 * supported and nothing more: no pupil's amount, no classmate, no leaderboard.
 */
const STYLE = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f7f2;color:#1f2a1c;line-height:1.5}
main{max-width:32rem;margin:0 auto;padding:2rem 1.25rem}
.card{background:#fff;border-radius:1rem;padding:1.5rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}
.brand{margin:0 0 1rem;font-size:.9rem;font-weight:600;color:#2f6b3a}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}p{margin:.5rem 0}
.greeting{white-space:pre-line;border-left:4px solid #2f6b3a;padding-left:.75rem}
progress{display:block;width:100%;height:1rem;appearance:none;border:0;border-radius:.5rem;background:#dfe6dc;color:#2f6b3a}
progress::-webkit-progress-bar{background:#dfe6dc;border-radius:.5rem}
progress::-webkit-progress-value{background:#2f6b3a;border-radius:.5rem}
progress::-moz-progress-bar{background:#2f6b3a;border-radius:.5rem}
.days{font-weight:600}
.shop{display:block;margin:1.5rem 0 .75rem;padding:1rem;border-radius:.75rem;background:#2f6b3a;color:#fff;text-align:center;font-size:1.25rem;font-weight:700;text-decoration:none}
.shop:focus-visible{outline:3px solid #1f2a1c;outline-offset:3px}
.small{font-size:.9rem;color:#4a5646}`;

/**
 * Each page carries its own policy: only its inline style, named by hash, and nothing else loads.
 * A link is a navigation, which no fetch directive governs. `connect-src 'self'` lets a checker
 * that fetches from the page (Lighthouse reads /robots.txt so) reach the portal; the page runs no
 * script, so nothing else can.
 */
export const BUYER_PAGE_CSP = `default-src 'none'; connect-src 'self'; style-src 'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<meta name="description" content="Handla hållbara produkter och stötta en skolklass insamling via Säljportalen.">
<title>${escapeHtml(title)} – Säljportalen</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="card">
<p class="brand">Säljportalen</p>
${body}
</div>
</main>
</body>
</html>
`;
}

/** A page of a heading and two paragraphs that leads nowhere. */
function kindPage(heading: string, first: string, second: string): string {
  return document(heading, `<h1>${escapeHtml(heading)}</h1>\n<p>${escapeHtml(first)}</p>\n<p>${escapeHtml(second)}</p>`);
}

/** "Du stöttar Alva i Klass 6B", "Du stöttar Alva" (a protected pupil's class is not told), "Du stöttar Klass 6B". */
export function supportHeading(page: Pick<OpenBuyerPage, 'sellerName' | 'groupName'>): string {
  if (page.sellerName && page.groupName) return `Du stöttar ${page.sellerName} i ${page.groupName}`;
  if (page.sellerName) return `Du stöttar ${page.sellerName}`;
  return page.groupName ? `Du stöttar ${page.groupName}` : 'Du stöttar en skolklass';
}

function openPageHtml(page: OpenBuyerPage, shopUrl: string): string {
  const heading = supportHeading(page);
  const parts = [`<h1>${escapeHtml(heading)}</h1>`];
  if (page.greeting) parts.push(`<p class="greeting">${escapeHtml(page.greeting)}</p>`);
  if (page.goal) {
    const { amountOre, raisedOre, purpose } = page.goal;
    const percent = amountOre > 0 ? Math.max(0, Math.floor((raisedOre / amountOre) * 100)) : 0;
    parts.push(
      `<h2>Klassens mål: ${escapeHtml(purpose)}</h2>`,
      `<p id="goal-progress">${escapeHtml(`${formatOreAsSek(Math.max(0, raisedOre))} insamlat av ${formatOreAsSek(amountOre)} (${percent} %)`)}</p>`,
      `<progress aria-labelledby="goal-progress" max="${amountOre}" value="${Math.min(Math.max(0, raisedOre), amountOre)}"></progress>`,
    );
  }
  if (page.campaign) {
    const days = campaignText({ state: 'running', starts_on: page.today, days_left: page.campaign.daysLeft }, page.today);
    const text = page.campaign.daysLeft > 1 ? `${days} – sista dagen är ${formatCampaignDay(page.campaign.endsOn, page.today)}` : days;
    parts.push(`<p class="days">${escapeHtml(text)}</p>`);
  }
  const shop = `${shopUrl}/?ref=${encodeURIComponent(page.shopRef)}`;
  parts.push(`<a class="shop" href="${escapeHtml(shop)}" rel="noreferrer">Till butiken</a>`);
  const countsFor = page.sellerName ? (page.groupName ? `${page.sellerName} och klassen` : page.sellerName) : 'klassen';
  parts.push(
    `<p class="small">${escapeHtml(`Det du köper i butiken via knappen räknas för ${countsFor}. En del av priset går till klassens insamling.`)}</p>`,
  );
  return document(heading, parts.join('\n'));
}

/** The HTML of a buyer page and its status: 404 where no link is (or is any longer), 200 otherwise. */
export function buyerPageHtml(page: BuyerPage, shopUrl: string): { status: 200 | 404; html: string } {
  switch (page.kind) {
    case 'open':
      return { status: 200, html: openPageHtml(page, shopUrl) };
    case 'unknown':
      return {
        status: 404,
        html: kindPage(
          'Länken hittades inte',
          'Länken du följde finns inte. Den kan ha skrivits av fel, eller så har säljaren fått en ny länk.',
          'Be den som gav dig länken om den igen, så att ditt köp räknas för rätt klass.',
        ),
      };
    case 'retired':
      return {
        status: 404,
        html: kindPage(
          'Länken används inte längre',
          'Tack för att du vill stödja klassen! Den här säljlänken har tagits bort och säljer inte längre för någon.',
          'Be gärna klassen om en ny länk.',
        ),
      };
    // Issue 22: without naming the pupil, and without going on to the shop (an order there would not count).
    case 'awaiting_guardian_consent':
      return {
        status: 200,
        html: kindPage(
          'Länken är inte aktiv än',
          'Tack för att du vill stödja klassen! Säljarens länk väntar på att en vårdnadshavare godkänner kontot.',
          'Försök gärna igen om några dagar, eller be säljaren om länken igen när den är aktiv.',
        ),
      };
    case 'campaign_upcoming': {
      const day = formatCampaignDay(page.startsOn, page.today);
      return {
        status: 200,
        html: kindPage(
          `Försäljningen startar ${day}`,
          'Tack för att du vill stödja klassen! Klassens försäljning har inte börjat än.',
          `Öppna länken igen från och med ${day}, så kommer du vidare till butiken.`,
        ),
      };
    }
    case 'campaign_ended':
      return {
        status: 200,
        html: kindPage(
          'Försäljningen är avslutad – tack!',
          'Klassens försäljning är avslutad, och länken säljer inte längre för klassen.',
          'Tack till dig och alla andra som har stöttat klassen!',
        ),
      };
  }
}
