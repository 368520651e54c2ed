import { describe, expect, it } from 'vitest';
import { newLinesText } from './outcome-text.js';

describe('newLinesText', () => {
  it('says one line in the singular and any other count in the plural', () => {
    expect(newLinesText(1)).toBe('1 ny rad');
    expect(newLinesText(0)).toBe('0 nya rader');
    expect(newLinesText(2)).toBe('2 nya rader');
  });
});
