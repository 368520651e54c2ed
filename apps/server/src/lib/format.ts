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
export function formatOreAsSek(ore: number, options: { decimals?: number } = {}): string {
  return sekFormatter(options.decimals ?? 0)
    .format(ore / 100)
    .replace('\u2212', '-');
}

/** The Stockholm calendar date of an instant, YYYY-MM-DD (the Swedish short date). */
export function formatDate(instant: Date): string {
  return stockholmDate(instant);
}

const HOUR_MS = 3_600_000;
const stockholmOffsets = new Map<number, number>();

/**
 * Stockholm's offset from UTC in milliseconds at an instant. It changes only on whole UTC hours
 * (01:00 UTC, the EU's rule), so it is looked up once per hour: a CSV export formats a hundred
 * thousand times, and a time zone lookup each time was its slowest step.
 */
function stockholmOffsetMs(epochMs: number): number {
  const hour = Math.floor(epochMs / HOUR_MS);
  let offset = stockholmOffsets.get(hour);
  if (offset === undefined) {
    if (stockholmOffsets.size > 100_000) stockholmOffsets.clear();
    offset = -new TZDate(hour * HOUR_MS, STOCKHOLM).getTimezoneOffset() * 60_000;
    stockholmOffsets.set(hour, offset);
  }
  return offset;
}

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/** The Stockholm date and time of an instant, "YYYY-MM-DD HH:mm". */
export function formatDateTime(instant: Date | number): string {
  const epochMs = typeof instant === 'number' ? instant : instant.getTime();
  // The UTC fields of the instant moved by the offset are Stockholm's wall clock.
  const local = new Date(epochMs + stockholmOffsetMs(epochMs));
  return (
    `${local.getUTCFullYear()}-${twoDigits(local.getUTCMonth() + 1)}-${twoDigits(local.getUTCDate())} ` +
    `${twoDigits(local.getUTCHours())}:${twoDigits(local.getUTCMinutes())}`
  );
}

/** The first word of a full name, for a greeting ('Hej Karin!'); the whole name when it is one word. */
export function firstNameOf(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? fullName;
}
