import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatDayMonth, formatIsoWeek, formatKronor, roundToOre } from './format';

// Intl writes a narrow no-break space between thousands and before "kr".
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('Swedish formatting', () => {
  it('shows SEK without decimals', () => {
    expect(plain(formatKronor(1234.5))).toBe('1 235 kr');
    expect(plain(formatKronor(0))).toBe('0 kr');
    expect(plain(formatKronor('99.40'))).toBe('99 kr');
    expect(plain(formatKronor(null))).toBe('0 kr');
  });

  it('writes money and counts exactly as Intl does for sv-SE', () => {
    const sek = new Intl.NumberFormat('sv-SE', { style: 'currency', currency: 'SEK', maximumFractionDigits: 0, minimumFractionDigits: 0 });
    const count = new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 });
    const amounts = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e16, max: 1e16 }),
      fc.integer({ min: -10_000_000, max: 10_000_000 }).map((ore) => ore / 100),
      fc.integer({ min: -100_000, max: 100_000 }).map((half) => half + 0.5),
      fc.constantFrom(0, -0, 0.5, -0.5, 999, 1000, 999_999.5, -1000, Number.MAX_SAFE_INTEGER, 1e21),
    );
    fc.assert(
      fc.property(amounts, (amount) => {
        expect(formatKronor(amount)).toBe(sek.format(amount));
        expect(formatCount(amount)).toBe(count.format(amount));
      }),
      { numRuns: 2000 },
    );
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

describe('chart labels', () => {
  it('writes a day short and an ISO week in Swedish', () => {
    expect(formatDayMonth('2026-11-22')).toBe('22 nov.');
    expect(formatDayMonth('2026-03-29')).toBe('29 mars');
    expect(formatDayMonth(null)).toBe('–');
    expect(formatIsoWeek('2026-W07')).toBe('v. 7');
    expect(formatIsoWeek('2026-W47', true)).toBe('vecka 47, 2026');
  });

  it("writes every calendar day of four years (leap day, both clock changes) as Intl's sv-SE does", () => {
    const zone = { timeZone: 'Europe/Stockholm' } as const;
    const intlDate = new Intl.DateTimeFormat('sv-SE', { ...zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    const intlDayMonth = new Intl.DateTimeFormat('sv-SE', { ...zone, day: 'numeric', month: 'short' });
    for (let time = Date.UTC(2024, 0, 1, 12); time < Date.UTC(2028, 0, 1); time += 86_400_000) {
      const day = new Date(time).toISOString().slice(0, 10);
      const noon = new Date(`${day}T12:00:00Z`);
      expect(formatDate(day)).toBe(intlDate.format(noon));
      expect(formatDayMonth(day)).toBe(intlDayMonth.format(noon));
    }
    // Not a calendar date: as before, '–'.
    expect(formatDate('2026-13-01')).toBe('–');
    expect(formatDayMonth('2026-13-01')).toBe('–');
  });
});
