/**
 * The one template of every mail the portal sends: a plain-text part and a branded, accessible
 * HTML part made from the same content, so the two never say different things (issue 19).
 *
 * A mail is a greeting, then blocks: a paragraph, or an action (the one link a person is to
 * follow, drawn as a button in HTML and written out in both parts so that it can be copied).
 * Every value is escaped where it goes into HTML; links must be http(s).
 */

export type MailBlock = string | { action: { label: string; url: string } };

declare const portalWords: unique symbol;
/** Text that begins with the portal's own words (made by `portal`). */
export type PortalText = string & { readonly [portalWords]: true };

/**
 * A subject or a greeting (the mail's first line): a template that must begin with the portal's
 * own words, never with a value (issue 28). A name someone else typed (a child's, a group's) can
 * only follow them, so no subject or first line reads as a stranger's text ("Vinn 5000 kr! Logga
 * in på …" from the consent mail of a child so named). Checked at every call, so a template that
 * breaks the rule fails its first test.
 */
export function portal(strings: TemplateStringsArray, ...values: (string | number)[]): PortalText {
  if (!/\p{L}/u.test(strings[0] ?? '')) {
    throw new Error(`ett mejls ämne och första rad ska börja med portalens egna ord: ${strings.join('${…}')}`);
  }
  return strings.map((part, index) => (index === 0 ? part : String(values[index - 1]) + part)).join('') as PortalText;
}

export interface MailContent {
  subject: PortalText;
  greeting: PortalText;
  blocks: MailBlock[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const BRAND = '#065f46'; // the app's theme colour (manifest theme_color); 7.4:1 on white
const INK = '#1f2937';
const MUTED = '#4b5563';
const SIGN_OFF = ['Hälsningar,', 'Säljportalen'];

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value: the five characters that could end either are escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** Only web links become a button: a `javascript:` or `data:` link in a mail is never the portal's. */
function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`mail link must be http(s): ${parsed.protocol}`);
  return parsed.href;
}

function textOf(content: MailContent): string {
  const blocks = content.blocks.map((block) =>
    typeof block === 'string' ? block : `${block.action.label}:\n${safeUrl(block.action.url)}`,
  );
  return [content.greeting, ...blocks, SIGN_OFF.join('\n')].join('\n\n');
}

function htmlBlock(block: MailBlock): string {
  if (typeof block === 'string') {
    return `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:${INK};">${escapeHtml(block)}</p>`;
  }
  const url = escapeHtml(safeUrl(block.action.url));
  const label = escapeHtml(block.action.label);
  return [
    '<p style="margin:24px 0 8px;">',
    `<a href="${url}" style="display:inline-block;background:${BRAND};color:#ffffff;font-size:16px;font-weight:bold;`,
    `text-decoration:none;padding:12px 24px;border-radius:8px;">${label}</a>`,
    '</p>',
    `<p style="margin:0 0 16px;font-size:14px;line-height:1.5;color:${MUTED};">Fungerar inte knappen? Öppna den här adressen:<br>`,
    `<a href="${url}" style="color:${BRAND};word-break:break-all;">${url}</a></p>`,
  ].join('');
}

function htmlOf(content: MailContent): string {
  const subject = escapeHtml(content.subject);
  return [
    '<!doctype html>',
    '<html lang="sv">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${subject}</title>`,
    '</head>',
    `<body style="margin:0;padding:0;background:#f8faf9;font-family:Arial,Helvetica,sans-serif;">`,
    // role=article with the subject as its name: how screen readers in mail clients find the mail.
    `<div role="article" aria-roledescription="e-post" aria-label="${subject}" lang="sv" style="padding:24px 12px;">`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;margin:0 auto;">',
    `<tr><td style="padding:0 0 16px;font-size:20px;font-weight:bold;color:${BRAND};">Säljportalen</td></tr>`,
    `<tr><td style="background:#ffffff;border:1px solid #d1d5db;border-radius:12px;padding:24px;">`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:${INK};">${escapeHtml(content.greeting)}</h1>`,
    ...content.blocks.map(htmlBlock),
    `<p style="margin:24px 0 0;font-size:16px;line-height:1.5;color:${INK};">${SIGN_OFF.map(escapeHtml).join('<br>')}</p>`,
    '</td></tr>',
    `<tr><td style="padding:16px 0 0;font-size:13px;line-height:1.5;color:${MUTED};">`,
    'Det här mejlet skickades av Säljportalen, där klasser och föreningar säljer hållbara produkter för sin resa eller verksamhet.',
    '</td></tr>',
    '</table>',
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** Both parts of a mail from one content. */
export function renderMail(content: MailContent): RenderedMail {
  return { subject: content.subject, text: textOf(content), html: htmlOf(content) };
}
