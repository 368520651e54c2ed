import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getISOWeek, getISOWeekYear } from 'date-fns';
import { addCalendarDays as addDays, calendarDaysBetween, isoWeekLabel, isoWeekMonday, stockholmDate, stockholmDayStart } from './dates.js';

const HOUR = 3_600_000;

/** The oracle: Stockholm wall-clock time of an instant as Intl (ICU's tz data) reads it. */
const wallClock = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Stockholm',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const stockholmWallClock = (instant: Date) => {
  const parts = Object.fromEntries(wallClock.formatToParts(instant).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
};

/** Calendar arithmetic on dates as such, free of any time zone. */
const addCalendarDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 24 * HOUR).toISOString().slice(0, 10);

/** The EU rule: summer time starts on the last Sunday of March and ends on the last Sunday of October. */
const lastSunday = (year: number, month: number) => {
  const last = new Date(Date.UTC(year, month, 0));
  return addCalendarDays(last.toISOString().slice(0, 10), -last.getUTCDay());
};

const calendarDay = fc
  .date({ min: new Date('1996-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
/** Days around each changeover, where a mistake would show. */
const dayNearChangeover = fc
  .tuple(fc.integer({ min: 1996, max: 2099 }), fc.constantFrom(3, 10), fc.integer({ min: -2, max: 2 }))
  .map(([year, month, offset]) => addCalendarDays(lastSunday(year, month), offset));
const anyDay = fc.oneof(calendarDay, dayNearChangeover);
const instant = fc.date({ min: new Date('1996-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true });

describe('stockholmDayStart', () => {
  it('is midnight in Stockholm of that very date', () => {
    fc.assert(
      fc.property(anyDay, (date) => {
        expect(stockholmWallClock(stockholmDayStart(date))).toEqual({ date, time: '00:00:00' });
        expect(stockholmWallClock(new Date(stockholmDayStart(date).getTime() - 1)).date).toBe(addCalendarDays(date, -1));
      }),
    );
  });

  it('makes a day 23 hours on the spring changeover, 25 on the autumn one and 24 otherwise', () => {
    fc.assert(
      fc.property(anyDay, (date) => {
        const hours = (stockholmDayStart(date, 1).getTime() - stockholmDayStart(date).getTime()) / HOUR;
        const year = Number(date.slice(0, 4));
        const expected = date === lastSunday(year, 3) ? 23 : date === lastSunday(year, 10) ? 25 : 24;
        expect(hours).toBe(expected);
      }),
    );
  });

  it('counts plusDays in calendar days, not in 24-hour steps', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -400, max: 400 }), (date, days) => {
        expect(stockholmDayStart(date, days).getTime()).toBe(stockholmDayStart(addCalendarDays(date, days)).getTime());
      }),
    );
  });

  it('puts every instant inside the inclusive period of its own Stockholm date, and outside the neighbours', () => {
    fc.assert(
      fc.property(instant, (at) => {
        const date = stockholmDate(at);
        expect(date).toBe(stockholmWallClock(at).date);
        expect(stockholmDayStart(date).getTime()).toBeLessThanOrEqual(at.getTime());
        expect(at.getTime()).toBeLessThan(stockholmDayStart(date, 1).getTime());
        // A one-day period ending the day before, or starting the day after, leaves it out.
        expect(at.getTime()).toBeGreaterThanOrEqual(stockholmDayStart(addCalendarDays(date, -1), 1).getTime());
        expect(at.getTime()).toBeLessThan(stockholmDayStart(addCalendarDays(date, 1)).getTime());
      }),
    );
  });

  it('a period [from, to] spans from midnight before `from` to midnight after `to`, across changeovers', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: 0, max: 120 }), (from, length) => {
        const to = addCalendarDays(from, length);
        const start = stockholmDayStart(from);
        const end = stockholmDayStart(to, 1);
        expect(stockholmWallClock(start)).toEqual({ date: from, time: '00:00:00' });
        expect(stockholmWallClock(new Date(end.getTime() - 1)).date).toBe(to);
        expect(stockholmWallClock(end)).toEqual({ date: addCalendarDays(to, 1), time: '00:00:00' });
      }),
    );
  });

  it('knows the 2025 changeovers', () => {
    expect(stockholmDayStart('2025-03-30').toISOString()).toBe('2025-03-29T23:00:00.000Z');
    expect(stockholmDayStart('2025-03-30', 1).toISOString()).toBe('2025-03-30T22:00:00.000Z');
    expect(stockholmDayStart('2025-10-26').toISOString()).toBe('2025-10-25T22:00:00.000Z');
    expect(stockholmDayStart('2025-10-26', 1).toISOString()).toBe('2025-10-26T23:00:00.000Z');
  });
});

describe('ISO weeks', () => {
  it('agree with date-fns on every day: the Monday, and the week of the Thursday', () => {
    fc.assert(
      fc.property(anyDay, (date) => {
        const noon = new Date(`${date}T12:00:00`);
        expect(isoWeekLabel(date)).toBe(`${getISOWeekYear(noon)}-W${String(getISOWeek(noon)).padStart(2, '0')}`);
        const monday = isoWeekMonday(date);
        expect(new Date(`${monday}T12:00:00Z`).getUTCDay()).toBe(1);
        expect(calendarDaysBetween(monday, date)).toBeGreaterThanOrEqual(0);
        expect(calendarDaysBetween(monday, date)).toBeLessThan(7);
      }),
    );
  });

  it('knows the weeks around new year', () => {
    expect(isoWeekLabel('2026-01-01')).toBe('2026-W01');
    expect(isoWeekLabel('2027-01-01')).toBe('2026-W53');
    expect(isoWeekLabel('2024-12-30')).toBe('2025-W01');
    expect(isoWeekMonday('2027-01-03')).toBe('2026-12-28');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  });
});
