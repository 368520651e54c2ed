import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commissionOre, oreToSek, payoutAmountsOre, sekToOre } from './money.js';

/** Öre amounts far beyond any order line (±10 million kr), where float arithmetic is still exact. */
const amount = fc.integer({ min: -1_000_000_000, max: 1_000_000_000 });
const rate = fc.integer({ min: 0, max: 10_000 });

/** The oracle: amount × rate / 10 000 rounded half away from zero, in exact integer arithmetic. */
function exactCommission(amountOre: number, bps: number): number {
  const magnitude = (BigInt(Math.abs(amountOre)) * BigInt(bps) * 2n + 10_000n) / 20_000n;
  return Number(amountOre < 0 ? -magnitude : magnitude);
}

describe('öre and kronor', () => {
  it('turn every öre amount into kronor with at most two decimals and back, unchanged', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 13), max: 10 ** 13 }), (ore) => {
        const sek = oreToSek(ore);
        expect(String(sek)).toMatch(/^-?\d+(\.\d{1,2})?$/);
        expect(sekToOre(sek)).toBe(ore);
        expect(oreToSek(String(ore))).toBe(sek);
        expect(oreToSek(BigInt(ore))).toBe(sek);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('commissionOre', () => {
  it('is the exact commission rounded half away from zero', () => {
    fc.assert(
      fc.property(amount, rate, (amountOre, bps) => {
        // + 0: a negative amount whose commission rounds to nothing gives -0, which is the same öre.
        expect(commissionOre(amountOre, bps) + 0).toBe(exactCommission(amountOre, bps));
      }),
      { numRuns: 5000 },
    );
  });

  it('rounds the halves away from zero on both signs', () => {
    // 2500 bps of 2 öre is exactly 0,5 öre.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (k) => {
        const halfAmount = 4 * k + 2;
        expect(commissionOre(halfAmount, 2500)).toBe(k + 1);
        expect(commissionOre(-halfAmount, 2500)).toBe(-(k + 1));
      }),
    );
  });

  it('reverses exactly: a refund of a line takes back what the sale gave, to the öre', () => {
    fc.assert(
      fc.property(amount, rate, (amountOre, bps) => {
        expect(commissionOre(amountOre, bps) + commissionOre(-amountOre, bps)).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('never exceeds the amount, never has the wrong sign, and grows with the amount', () => {
    fc.assert(
      fc.property(amount, amount, rate, (a, b, bps) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(commissionOre(low, bps)).toBeLessThanOrEqual(commissionOre(high, bps));
        const commission = commissionOre(a, bps);
        expect(Math.abs(commission)).toBeLessThanOrEqual(Math.abs(a));
        expect(commission * a).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(commission)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(amount, (a) => {
        expect(commissionOre(a, 0) + 0).toBe(0);
        expect(commissionOre(a, 10_000)).toBe(a);
      }),
    );
  });

  it('drifts by at most half an öre per line when an order is summed line by line', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 50 }), rate, (lines, bps) => {
        const perLine = lines.reduce((sum, line) => sum + commissionOre(line, bps), 0);
        const exact = (lines.reduce((sum, line) => sum + line, 0) * bps) / 10_000;
        expect(Math.abs(perLine - exact)).toBeLessThanOrEqual(lines.length / 2);
      }),
    );
  });
});

describe('payoutAmountsOre (öresavrundning)', () => {
  it('rounds to whole kronor, 50 öre away from zero, and the rounding makes up the difference', () => {
    expect(payoutAmountsOre(293_250)).toEqual({ commissionOre: 293_250, roundingOre: 50, toPayOre: 293_300 });
    expect(payoutAmountsOre(293_249)).toEqual({ commissionOre: 293_249, roundingOre: -49, toPayOre: 293_200 });
    expect(payoutAmountsOre(-12_050)).toEqual({ commissionOre: -12_050, roundingOre: -50, toPayOre: -12_100 });
    expect(payoutAmountsOre(0)).toEqual({ commissionOre: 0, roundingOre: 0, toPayOre: 0 });
    fc.assert(
      fc.property(amount, (ore) => {
        const { roundingOre, toPayOre } = payoutAmountsOre(ore);
        expect(toPayOre % 100 === 0).toBe(true);
        expect(ore + roundingOre).toBe(toPayOre);
        expect(Math.abs(roundingOre)).toBeLessThanOrEqual(50);
      }),
    );
  });
});
