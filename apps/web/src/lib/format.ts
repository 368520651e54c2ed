/**
 * The one place for Swedish formatting of money and dates (spec §1: SEK, zero decimals, sv-SE).
 *
 * Whole kronor and counts are written here rather than by Intl.NumberFormat: a page's first Intl
 * formatter loads ICU's locale data, tens of milliseconds on a phone, and the dashboard shows
 * nothing but whole numbers. The output is Intl's own for sv-SE, character for character (a
 * no-break space between thousands and before "kr", U+2212 for minus), as format.test.ts checks.
 * The date formatters, which need Intl's time zones, are made when a date is first shown.
 */
const NO_BREAK_SPACE = '\u00a0';
const MINUS_SIGN = '\u2212';

let intlInteger: Intl.NumberFormat | undefined;

/** Rounded half away from zero to a whole number, as Intl rounds; grouped by threes. */
function formatWhole(value: number): string {
  const rounded = Math.round(Math.abs(value));
  // Beyond 2^53 digits are no longer exact (and String() turns to exponents): Intl knows best.
  if (!Number.isSafeInteger(rounded)) {
    intlInteger ??= new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 });
    return intlInteger.format(value);
  }
  const digits = String(rounded);
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let index = grouped.length; index < digits.length; index += 3) grouped += NO_BREAK_SPACE + digits.slice(index, index + 3);
  // Intl writes the sign of every negative value, -0 and -0.4 too.
  return value < 0 || Object.is(value, -0) ? MINUS_SIGN + grouped : grouped;
}

let dateFormatter: Intl.DateTimeFormat | undefined;
let dateTimeFormatter: Intl.DateTimeFormat | undefined;

const toNumber = (value: number | string | null | undefined): number => {
  const number = typeof value === 'string' ? Number(value.replace(',', '.')) : (value ?? 0);
  return Number.isFinite(number) ? number : 0;
};

/** An amount in kronor, as the API speaks it, shown in whole kronor: 1234.5 → "1 235 kr" (spec §1). */
export const formatKronor = (amount: number | string | null | undefined): string => formatWhole(toNumber(amount)) + NO_BREAK_SPACE + 'kr';

/** 1234 → "1 234" */
export const formatCount = (value: number | string | null | undefined): string => formatWhole(toNumber(value));

const isCalendarDay = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

const toDate = (value: string | number | Date): Date | undefined => {
  // A bare calendar date is a Stockholm day, not UTC midnight.
  const date = isCalendarDay(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/*
 * A bare calendar date is written without Intl: noon UTC is the same day in Stockholm (UTC+1 or
 * +2), so the day is the UTC one. A chart of a campaign writes a few hundred days, and the first
 * Intl formatter with a time zone loads ICU's data: together 40 ms of a phone's main thread
 * right after the dashboard's first paint (decision 045). format.test.ts checks every day of
 * four years against Intl's own output.
 */
const SHORT_MONTHS = ['jan.', 'feb.', 'mars', 'apr.', 'maj', 'juni', 'juli', 'aug.', 'sep.', 'okt.', 'nov.', 'dec.'];

/** "2026-11-22" */
export const formatDate = (value: string | number | Date | null | undefined): string => {
  const date = value == null ? undefined : toDate(value);
  if (!date) return '–';
  if (isCalendarDay(value)) return date.toISOString().slice(0, 10);
  dateFormatter ??= new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' });
  return dateFormatter.format(date);
};

/** "2026-11-22 14:05" */
export const formatDateTime = (value: string | number | Date | null | undefined): string => {
  const date = value == null ? undefined : toDate(value);
  if (!date) return '–';
  dateTimeFormatter ??= new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Stockholm',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  return dateTimeFormatter.format(date);
};

/** Sums rounded to two decimals, as spec §9 requires for amounts summed from orders. */
export const roundToOre = (value: number): number => Math.round(value * 100) / 100;

let dayMonthFormatter: Intl.DateTimeFormat | undefined;

/** A calendar day, short, for a chart's axis: "22 nov." */
export const formatDayMonth = (value: string | number | Date | null | undefined): string => {
  const date = value == null ? undefined : toDate(value);
  if (!date) return '–';
  if (isCalendarDay(value)) return `${date.getUTCDate()} ${SHORT_MONTHS[date.getUTCMonth()]}`;
  dayMonthFormatter ??= new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', day: 'numeric', month: 'short' });
  return dayMonthFormatter.format(date);
};

/** An ISO week as the API speaks it ('2026-W47'): "v. 47", or with `long` "vecka 47, 2026". */
export const formatIsoWeek = (week: string, long = false): string => {
  const match = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!match) return week;
  const number = Number(match[2]);
  return long ? `vecka ${number}, ${match[1]}` : `v. ${number}`;
};

/**
 * A name as owner, the Swedish way: 'Alvas', but 'Jonas' and 'Max' as they are (a name ending in
 * s, x or z takes no further s). How a guardian's view speaks of the child: 'Alvas länk'.
 */
export const genitive = (name: string): string => (/[sxz]$/i.test(name) ? name : `${name}s`);
