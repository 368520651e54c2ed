import { describe, expect, it } from 'vitest';
import { escapeHtml, portal, renderMail } from './mail-template.js';

const content = {
  subject: portal`Välkommen till Säljportalen`,
  greeting: portal`Hej Åsa!`,
  blocks: [
    'Du har lagts till i Klass 6B på Säljportalen som säljare.',
    { action: { label: 'Välj lösenord', url: 'https://portal.skolan.se/auth/reset-password?code=abc&valkommen=1' } },
    'Länken fungerar en gång.',
  ],
};

describe('renderMail', () => {
  it('makes a text part and an HTML part that say the same things', () => {
    const mail = renderMail(content);
    expect(mail.subject).toBe('Välkommen till Säljportalen');
    expect(mail.text).toBe(
      [
        'Hej Åsa!',
        'Du har lagts till i Klass 6B på Säljportalen som säljare.',
        'Välj lösenord:\nhttps://portal.skolan.se/auth/reset-password?code=abc&valkommen=1',
        'Länken fungerar en gång.',
        'Hälsningar,\nSäljportalen',
      ].join('\n\n'),
    );
    for (const part of [
      'Hej Åsa!',
      'Du har lagts till i Klass 6B på Säljportalen som säljare.',
      'Länken fungerar en gång.',
      'Säljportalen',
    ]) {
      expect(mail.html).toContain(part);
    }
    // The link is a button and written out, its & escaped in the attribute and the text alike.
    const escapedUrl = 'https://portal.skolan.se/auth/reset-password?code=abc&amp;valkommen=1';
    expect(mail.html).toContain(`<a href="${escapedUrl}"`);
    expect(mail.html).toContain(`>Välj lösenord</a>`);
    expect(mail.html.split(escapedUrl)).toHaveLength(4); // two hrefs and the written-out address
  });

  it('is an accessible Swedish document: language, title, one heading, layout table marked as such', () => {
    const { html } = renderMail(content);
    expect(html).toMatch(/^<!doctype html>\n<html lang="sv">/);
    expect(html).toContain('<title>Välkommen till Säljportalen</title>');
    expect(html).toContain('role="article"');
    expect(html).toContain('aria-label="Välkommen till Säljportalen"');
    expect(html.match(/<h1\b/g)).toHaveLength(1);
    expect(html).toContain('<table role="presentation"');
    expect(html).not.toMatch(/<img\b/);
  });

  it('escapes every value it is given: names, group names, subjects and links', () => {
    const hostile = `<script>alert("x")</script> & 'Ö'`;
    const { html, text } = renderMail({
      subject: portal`Ämne: ${hostile}`,
      greeting: portal`Hej ${hostile}!`,
      blocks: [`Du har lagts till i ${hostile}.`, { action: { label: hostile, url: 'https://portal.skolan.se/?q="><img src=x>' } }],
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Ö&#39;');
    // The text part is plain text: nothing to escape there.
    expect(text).toContain(`Hej ${hostile}!`);
  });

  it('refuses a link that is not a web address', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'not a url']) {
      expect(() => renderMail({ ...content, blocks: [{ action: { label: 'Öppna', url } }] }), url).toThrow();
    }
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that end HTML text or an attribute', () => {
    expect(escapeHtml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f');
    expect(escapeHtml('Åsa Öberg')).toBe('Åsa Öberg');
  });
});
