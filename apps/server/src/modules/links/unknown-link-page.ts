import { formatCampaignDay } from '@saljportalen/contract';
import crypto from 'node:crypto';

const STYLE = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f7f2;color:#1f2a1c}
main{max-width:32rem;margin:12vh auto;padding:2rem;background:#fff;border-radius:1rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 1rem}p{line-height:1.5}
a{display:inline-block;margin-top:1rem;padding:.75rem 1.25rem;border-radius:.5rem;background:#2f6b3a;color:#fff;text-decoration:none}`;

/**
 * The page's only style is inline; the site-wide policy allows styles from our origin only, so
 * this page carries its own policy naming the style by its hash, and nothing else.
 */
export const UNKNOWN_LINK_CSP = `default-src 'none'; style-src 'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** What a buyer sees after following a personal link that does not (or no longer) exist. */
export function unknownLinkPage(shopUrl: string): string {
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Länken hittades inte – Säljportalen</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Länken hittades inte</h1>
<p>Säljlänken du följde finns inte. Den kan ha skrivits av fel, eller så har säljaren fått en ny länk.</p>
<p>Du kan fortfarande handla i butiken. Vill du att köpet ska räknas för en viss säljare, be hen om länken igen.</p>
<a href="${escapeHtml(shopUrl)}/">Gå till butiken</a>
</main>
</body>
</html>
`;
}

const INACTIVE_STYLE = STYLE.replace(/a\{[^}]*\}$/, '');

/** The inactive link's page has no link of its own, so its policy names only its style. */
export const INACTIVE_LINK_CSP = `default-src 'none'; style-src 'sha256-${crypto.createHash('sha256').update(INACTIVE_STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * What a buyer sees after following the link of a pupil under 13 whose guardian has not yet
 * approved the account (issue 22): kindly, without naming the pupil, and without going on to the
 * shop (an order there would not count for the pupil anyway).
 */
export function inactiveLinkPage(): string {
  return plainPage(
    'Länken är inte aktiv än',
    'Tack för att du vill stödja klassen! Säljarens länk väntar på att en vårdnadshavare godkänner kontot.',
    'Försök gärna igen om några dagar, eller be säljaren om länken igen när den är aktiv.',
  );
}

/** A link of a class whose campaign starts later (issue 31): when it opens, without naming the pupil. */
export function campaignUpcomingPage(startsOn: string, today: string): string {
  const day = formatCampaignDay(startsOn, today);
  return plainPage(
    `Försäljningen startar ${day}`,
    'Tack för att du vill stödja klassen! Klassens försäljning har inte börjat än.',
    `Öppna länken igen från och med ${day}, så kommer du till butiken.`,
  );
}

/** A link of a class whose campaign has ended (issue 31). */
export function campaignEndedPage(): string {
  return plainPage(
    'Försäljningen är avslutad – tack!',
    'Klassens försäljning är avslutad, och länken säljer inte längre för klassen.',
    'Tack till dig och alla andra som har stöttat klassen!',
  );
}

/** A page of a heading and two paragraphs under the inactive link's style (and so its policy). */
function plainPage(heading: string, first: string, second: string): string {
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(heading)} – Säljportalen</title>
<style>${INACTIVE_STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(first)}</p>
<p>${escapeHtml(second)}</p>
</main>
</body>
</html>
`;
}
