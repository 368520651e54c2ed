import { TZDate } from '@date-fns/tz';
import { addDays, getISOWeek, getISOWeekYear } from 'date-fns';
import { STOCKHOLM, stockholmDate } from '../../lib/dates.js';

/** No notification mail is queued from 21:00 to 07:00 Stockholm time: what happens then waits for the morning. */
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 7;

/** The Stockholm wall clock of an instant: its date, hour and ISO weekday (1 Monday … 7 Sunday). */
export function stockholmClock(now: Date): { date: string; hour: number; isoWeekday: number } {
  const local = new TZDate(now.getTime(), STOCKHOLM);
  const day = local.getDay();
  return { date: stockholmDate(now), hour: local.getHours(), isoWeekday: day === 0 ? 7 : day };
}

/** Between 21:00 and 07:00 in Stockholm, whatever the server's own zone and right across DST changes. */
export function isQuietHour(now: Date): boolean {
  const { hour } = stockholmClock(now);
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/** The week (Monday to Sunday, Stockholm days) before the one `now` falls in, with its ISO week number. */
export function previousStockholmWeek(now: Date): { from: string; to: string; week: number; label: string } {
  const { date, isoWeekday } = stockholmClock(now);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  // Noon, so that adding days never crosses a DST change into the wrong date.
  const today = new Date(Date.UTC(year, month - 1, day, 12));
  const monday = addDays(today, -(isoWeekday - 1) - 7);
  const sunday = addDays(monday, 6);
  const isoDate = (d: Date) => d.toISOString().slice(0, 10);
  const week = getISOWeek(monday);
  return { from: isoDate(monday), to: isoDate(sunday), week, label: `${getISOWeekYear(monday)}-W${String(week).padStart(2, '0')}` };
}
