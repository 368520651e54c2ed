/** The API speaks SEK with at most two decimals; the database keeps integer öre (DESIGN D5). */
export const oreToSek = (ore: number | string | bigint): number => Number(ore) / 100;

export const sekToOre = (sek: number): number => Math.round(sek * 100);

/** Commission in öre of an amount in öre at a rate in basis points, rounded half away from zero. */
export function commissionOre(amountOre: number, bps: number): number {
  const exact = (amountOre * bps) / 10_000;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}
