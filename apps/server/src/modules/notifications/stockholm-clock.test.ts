import { describe, expect, it } from 'vitest';
import { isQuietHour, previousStockholmWeek, stockholmClock } from './stockholm-clock.js';

describe('the Stockholm clock of the notification jobs', () => {
  it('keeps quiet from 21:00 to 07:00 Stockholm time, in winter and in summer', () => {
    // Winter, UTC+1.
    expect(isQuietHour(new Date('2026-11-23T19:59:00Z'))).toBe(false); // 20:59
    expect(isQuietHour(new Date('2026-11-23T20:00:00Z'))).toBe(true); // 21:00
    expect(isQuietHour(new Date('2026-11-24T05:59:00Z'))).toBe(true); // 06:59
    expect(isQuietHour(new Date('2026-11-24T06:00:00Z'))).toBe(false); // 07:00
    // Summer, UTC+2.
    expect(isQuietHour(new Date('2026-06-15T18:59:00Z'))).toBe(false); // 20:59
    expect(isQuietHour(new Date('2026-06-15T19:00:00Z'))).toBe(true); // 21:00
    expect(isQuietHour(new Date('2026-06-16T05:00:00Z'))).toBe(false); // 07:00
  });

  it('names the Stockholm weekday, also when UTC is still on the day before', () => {
    expect(stockholmClock(new Date('2026-11-22T23:30:00Z'))).toEqual({ date: '2026-11-23', hour: 0, isoWeekday: 1 });
    expect(stockholmClock(new Date('2026-11-22T12:00:00Z')).isoWeekday).toBe(7);
  });

  it('reports the week before, Monday to Sunday, across a year and a DST change', () => {
    expect(previousStockholmWeek(new Date('2026-11-23T06:00:00Z'))).toEqual({
      from: '2026-11-16',
      to: '2026-11-22',
      week: 47,
      label: '2026-W47',
    });
    // Monday 4 January 2027: the week before is week 53 of 2026.
    expect(previousStockholmWeek(new Date('2027-01-04T07:00:00Z'))).toMatchObject({
      from: '2026-12-28',
      to: '2027-01-03',
      label: '2026-W53',
    });
    // Monday 30 March 2026, the day after summer time began.
    expect(previousStockholmWeek(new Date('2026-03-30T05:00:00Z'))).toMatchObject({ from: '2026-03-23', to: '2026-03-29', week: 13 });
  });
});
