import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns';

/** Payout periods and "today" are calendar days in Sweden, whatever the server's own zone. */
export const STOCKHOLM = 'Europe/Stockholm';

/** The Stockholm calendar date (YYYY-MM-DD) of an instant. */
export function stockholmDate(instant: Date): string {
  const d = new TZDate(instant.getTime(), STOCKHOLM);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * Day starts already worked out: every order booked for a group with payouts asks for its
 * periods' bounds, and the time-zone arithmetic was a few per cent of a webhook's CPU.
 */
const dayStarts = new Map<string, number>();

/**
 * The instant a Stockholm calendar day starts, `plusDays` days after `date`. An inclusive period
 * [from, to] is the half-open range [dayStart(from), dayStart(to, 1)), right across DST changes.
 */
export function stockholmDayStart(date: string, plusDays = 0): Date {
  const key = `${date}+${plusDays}`;
  let instant = dayStarts.get(key);
  if (instant === undefined) {
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    instant = addDays(new TZDate(year, month - 1, day, STOCKHOLM), plusDays).getTime();
    if (dayStarts.size >= 4096) dayStarts.clear();
    dayStarts.set(key, instant);
  }
  return new Date(instant);
}

/** Calendar arithmetic on YYYY-MM-DD days, in UTC so that no zone's clock changes move a day. */
const utcDay = (date: string): Date => new Date(`${date}T00:00:00Z`);
const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The calendar day `days` days after `date` (before it when negative). */
export function addCalendarDays(date: string, days: number): string {
  const day = utcDay(date);
  day.setUTCDate(day.getUTCDate() + days);
  return isoDay(day);
}

/** Whole days from `from` to `to`: 0 for the same day. */
export const calendarDaysBetween = (from: string, to: string): number =>
  Math.round((utcDay(to).getTime() - utcDay(from).getTime()) / 86_400_000);

/** The Monday of the ISO week a calendar day is in. */
export function isoWeekMonday(date: string): string {
  const weekday = (utcDay(date).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addCalendarDays(date, -weekday);
}

/** The ISO week of a calendar day, `2026-W01`: the week-year is the year of its Thursday. */
export function isoWeekLabel(date: string): string {
  const thursday = utcDay(addCalendarDays(isoWeekMonday(date), 3));
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * The last Stockholm day whose orders are payable under a holding period of `holdDays` (issue 30
 * point 4): an order is payable once `holdDays` whole days have passed since the day it was placed.
 * Null without a holding period: every order is payable as soon as it is booked.
 */
export function lastPayableDay(holdDays: number, now = new Date()): string | null {
  return holdDays > 0 ? addCalendarDays(stockholmDate(now), -holdDays) : null;
}
