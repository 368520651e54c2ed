import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatOreAsSek } from './format.js';

const NBSP = '\u00a0';

describe('formatOreAsSek', () => {
  it('writes whole kronor the Swedish way', () => {
    expect(formatOreAsSek(14_900)).toBe(`149${NBSP}kr`);
    expect(formatOreAsSek(0)).toBe(`0${NBSP}kr`);
  });

  it('groups thousands with a no-break space', () => {
    expect(formatOreAsSek(149_000)).toBe(`1${NBSP}490${NBSP}kr`);
    expect(formatOreAsSek(123_456_700)).toBe(`1${NBSP}234${NBSP}567${NBSP}kr`);
  });

  it('rounds to whole kronor unless decimals are asked for', () => {
    expect(formatOreAsSek(14_950)).toBe(`150${NBSP}kr`);
    expect(formatOreAsSek(14_950, { decimals: 2 })).toBe(`149,50${NBSP}kr`);
  });

  it('uses an ASCII hyphen for negative amounts, which PDF standard fonts can encode', () => {
    expect(formatOreAsSek(-250_000)).toBe(`-2${NBSP}500${NBSP}kr`);
    expect(formatOreAsSek(-250_000)).not.toContain('\u2212');
  });
});

describe('formatDate and formatDateTime', () => {
  it('give the Stockholm calendar day, not the UTC one', () => {
    // 23:30 UTC on 31 December is already New Year's Day in Stockholm (UTC+1 in winter).
    const newYear = new Date('2025-12-31T23:30:00Z');
    expect(formatDate(newYear)).toBe('2026-01-01');
    expect(formatDateTime(newYear)).toBe('2026-01-01 00:30');
  });

  it('follow summer time', () => {
    const midsummer = new Date('2026-06-19T10:05:00Z');
    expect(formatDate(midsummer)).toBe('2026-06-19');
    expect(formatDateTime(midsummer)).toBe('2026-06-19 12:05');
  });
});

describe('formatDateTime around the summer-time changes', () => {
  it('agrees with the time zone database minute by minute across both changes of a year', () => {
    const reference = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Stockholm',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const change of ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z']) {
      const at = new Date(change).getTime();
      for (let minute = -180; minute <= 180; minute++) {
        const instant = new Date(at + minute * 60_000 + 17_000);
        expect(formatDateTime(instant), instant.toISOString()).toBe(reference.format(instant));
      }
    }
  });
});
