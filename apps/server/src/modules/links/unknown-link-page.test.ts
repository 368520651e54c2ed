import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_LINK_CSP, unknownLinkPage } from './unknown-link-page.js';

describe('unknown link page', () => {
  it('is allowed by its own policy: the hash in it is that of its inline style', () => {
    const style = /<style>([\s\S]*?)<\/style>/.exec(unknownLinkPage('https://butik.example.se'))![1]!;
    const hash = crypto.createHash('sha256').update(style).digest('base64');
    expect(UNKNOWN_LINK_CSP).toContain(`style-src 'sha256-${hash}'`);
  });

  it('escapes the shop address it links to', () => {
    expect(unknownLinkPage('https://butik.example.se/"><script>')).toContain('href="https://butik.example.se/&quot;&gt;&lt;script&gt;/"');
  });
});
