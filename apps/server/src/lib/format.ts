import { TZDate } from '@date-fns/tz';
import { STOCKHOLM, stockholmDate } from './dates.js';

const sekFormatters = new Map<number, Intl.NumberFormat>();

function sekFormatter(decimals: number): Intl.NumberFormat {
  let formatter = sekFormatters.get(decimals);
  if (!formatter) {
    formatter = new Intl.NumberFormat('sv-SE', {
      style: 'currency',
      currency: 'SEK',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    sekFormatters.set(decimals, formatter);
  }
  return formatter;
}

/**
 * An amount in öre as Swedish SEK text, "1 490 kr" (spec §1: zero decimals in display).
 * Intl writes the minus sign as U+2212, which the standard PDF fonts (WinAnsi) cannot encode,
 * so it becomes an ASCII hyphen; the grouping space stays a no-break space, which they can.
 */
export function formatSek(ore: number, options: { decimals?: number } = {}): string {
  return sekFormatter(options.decimals ?? 0)
    .format(ore / 100)
    .replace('\u2212', '-');
}

/** The Stockholm calendar date of an instant, YYYY-MM-DD (the Swedish short date). */
export function formatDate(instant: Date): string {
  return stockholmDate(instant);
}

/** The Stockholm date and time of an instant, "YYYY-MM-DD HH:mm". */
export function formatDateTime(instant: Date): string {
  const local = new TZDate(instant.getTime(), STOCKHOLM);
  const time = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
  return `${stockholmDate(instant)} ${time}`;
}
