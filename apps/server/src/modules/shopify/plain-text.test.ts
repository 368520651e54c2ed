import { describe, expect, it } from 'vitest';
import { htmlToPlainText } from './plain-text.js';

describe('htmlToPlainText', () => {
  it('turns a Shopify description into text for the catalogue', () => {
    expect(htmlToPlainText('<p>Bivax &amp; bomull</p><ul><li>Tvättbar</li><li>Håller&nbsp;ett år</li></ul><script>alert(1)</script>')).toBe(
      'Bivax & bomull\nTvättbar\nHåller ett år',
    );
    expect(htmlToPlainText('Rad ett<br>rad två<br/>  &#229;&#x00E4; &okänd;')).toBe('Rad ett\nrad två\nåä &okänd;');
    expect(htmlToPlainText('')).toBe('');
  });

  it('gives text PostgreSQL can store: no NUL, no lone surrogate from the text or an entity', () => {
    expect(htmlToPlainText('<p>Bi\u0000vax</p>\u0000<p>&#xD800; &#56320; \udc00</p>')).toBe('Bivax\n\ufffd \ufffd \ufffd');
  });
});
