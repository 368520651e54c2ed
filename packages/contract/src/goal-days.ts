// A class goal's limits and Stockholm days, without zod: the web's first paint (the goal's
// progress, its form's fields) uses them through `@saljportalen/contract/plain`.

/** Today as a Stockholm calendar day (`YYYY-MM-DD`), wherever the code runs: the class's day decides. */
export function stockholmToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The largest goal a form takes: far above any class's sales, far below what öre in a bigint hold. */
export const GOAL_MAX_KRONOR = 10_000_000;

export const GOAL_PURPOSE_MAX_LENGTH = 100;
