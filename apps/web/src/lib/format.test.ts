import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatSek, roundToOre } from './format';

// Intl writes a narrow no-break space between thousands and before "kr".
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('Swedish formatting', () => {
  it('shows SEK without decimals', () => {
    expect(plain(formatSek(1234.5))).toBe('1 235 kr');
    expect(plain(formatSek(0))).toBe('0 kr');
    expect(plain(formatSek('99.40'))).toBe('99 kr');
    expect(plain(formatSek(null))).toBe('0 kr');
  });

  it('shows dates in Stockholm time', () => {
    expect(formatDate('2026-03-29')).toBe('2026-03-29');
    expect(formatDate('2026-11-21T23:30:00Z')).toBe('2026-11-22');
    expect(formatDateTime('2026-07-01T10:05:00Z')).toBe('2026-07-01 12:05');
    expect(formatDate('inte ett datum')).toBe('–');
  });

  it('rounds sums to two decimals', () => {
    expect(roundToOre(0.1 + 0.2)).toBe(0.3);
  });
});
