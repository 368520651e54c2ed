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
 * The instant a Stockholm calendar day starts, `plusDays` days after `date`. An inclusive period
 * [from, to] is the half-open range [dayStart(from), dayStart(to, 1)), right across DST changes.
 */
export function stockholmDayStart(date: string, plusDays = 0): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const start = addDays(new TZDate(year, month - 1, day, STOCKHOLM), plusDays);
  return new Date(start.getTime());
}
