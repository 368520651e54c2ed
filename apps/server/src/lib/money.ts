/** The API speaks SEK with at most two decimals; the database keeps integer öre (DESIGN D5). */
export const oreToSek = (ore: number | string | bigint): number => Number(ore) / 100;

export const sekToOre = (sek: number): number => Math.round(sek * 100);

/** Commission in öre of an amount in öre at a rate in basis points, rounded half away from zero. */
export function commissionOre(amountOre: number, bps: number): number {
  const exact = (amountOre * bps) / 10_000;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

/**
 * Öresavrundning, the one rule for what a payout pays (issue 19): its lines and totals stay exact
 * to the öre, and the amount to pay is their sum rounded to whole kronor, 50 öre and more away
 * from zero, as Swedish cash and invoices are. The rounding is the difference, so that lines +
 * öresavrundning = att betala adds up on paper. Every place a payout's amount shows (the create
 * answer, the list, the PDF, the CSV) reads it from here.
 */
export function payoutAmountsOre(commissionOre: number): { commissionOre: number; roundingOre: number; toPayOre: number } {
  const kronor = Math.round(Math.abs(commissionOre) / 100);
  // `+ 0` keeps -49 öre from rounding to -0.
  const toPayOre = (commissionOre < 0 ? -kronor : kronor) * 100 + 0;
  return { commissionOre, roundingOre: toPayOre - commissionOre, toPayOre };
}
