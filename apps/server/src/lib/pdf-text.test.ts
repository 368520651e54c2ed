import { describe, expect, it } from 'vitest';
import { toWinAnsi } from './pdf-text.js';

describe('toWinAnsi', () => {
  it('keeps Swedish and other Latin-1 letters and the typographic marks WinAnsi has', () => {
    const text = 'Åsa Öberg – Ängelholms IF, Zoë Müller, 149\u00a0kr, “citat” …';
    expect(toWinAnsi(text)).toBe(text);
  });

  it('drops diacritics WinAnsi lacks and spells a few letters plainly', () => {
    expect(toWinAnsi('Łukasz Ćwikła, Đorđe Şahin')).toBe('Lukasz Cwikla, Dorde Sahin');
  });

  it('composes decomposed input, so a macOS-style "a + ring" stays å', () => {
    expect(toWinAnsi('A\u030agren')).toBe('Ågren');
  });

  it('puts a question mark where no Latin spelling exists, and normalises line breaks', () => {
    expect(toWinAnsi('Мария 李\r\nrad två\tslut')).toBe('????? ?\nrad två slut');
  });
});
