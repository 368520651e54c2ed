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
