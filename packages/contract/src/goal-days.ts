// A class goal's limits and Stockholm days, without zod: the web's first paint (the goal's
// progress, its form's fields) uses them through `@saljportalen/contract/plain`.

// Made once, when first needed: making an Intl formatter with a time zone costs about a
// millisecond (on a phone several), and the dashboard asks for today on every render of a goal.
let stockholmDays: Intl.DateTimeFormat | undefined;

/** Today as a Stockholm calendar day (`YYYY-MM-DD`), wherever the code runs: the class's day decides. */
export function stockholmToday(now: Date = new Date()): string {
  stockholmDays ??= new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' });
  return stockholmDays.format(now);
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The largest goal a form takes: far above any class's sales, far below what öre in a bigint hold. */
export const GOAL_MAX_KRONOR = 10_000_000;

export const GOAL_PURPOSE_MAX_LENGTH = 100;
