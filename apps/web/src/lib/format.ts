/** The one place for Swedish formatting of money and dates (spec §1: SEK, zero decimals, sv-SE). */
const sekFormatter = new Intl.NumberFormat('sv-SE', {
  style: 'currency',
  currency: 'SEK',
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});
const integerFormatter = new Intl.NumberFormat('sv-SE', { maximumFractionDigits: 0 });
const dateFormatter = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' });
const dateTimeFormatter = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Stockholm',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

const toNumber = (value: number | string | null | undefined): number => {
  const number = typeof value === 'string' ? Number(value.replace(',', '.')) : (value ?? 0);
  return Number.isFinite(number) ? number : 0;
};

/** 1234.5 → "1 235 kr" */
export const formatSek = (amount: number | string | null | undefined): string => sekFormatter.format(toNumber(amount));

/** 1234 → "1 234" */
export const formatCount = (value: number | string | null | undefined): string => integerFormatter.format(toNumber(value));

const toDate = (value: string | number | Date): Date | undefined => {
  // A bare calendar date is a Stockholm day, not UTC midnight.
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** "2026-11-22" */
export const formatDate = (value: string | number | Date | null | undefined): string => {
  const date = value == null ? undefined : toDate(value);
  return date ? dateFormatter.format(date) : '–';
};

/** "2026-11-22 14:05" */
export const formatDateTime = (value: string | number | Date | null | undefined): string => {
  const date = value == null ? undefined : toDate(value);
  return date ? dateTimeFormatter.format(date) : '–';
};

/** Sums rounded to two decimals, as spec §9 requires for amounts summed from orders. */
export const roundToOre = (value: number): number => Math.round(value * 100) / 100;
