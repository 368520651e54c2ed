import { describe, expect, it } from 'vitest';
import { checkPayoutAccount, formatPayoutAccount, luhnValid, maskPayoutAccount, ZSetPayoutAccountRequestSchema } from './payout-account.js';

const refusal = (result: ReturnType<typeof checkPayoutAccount>) => ('refusal' in result ? result.refusal : null);
const account = (result: ReturnType<typeof checkPayoutAccount>) => {
  if (!('account' in result)) throw new Error(`refused: ${result.refusal.message}`);
  return result.account;
};

describe("luhnValid (Bankgirot's mod 10)", () => {
  it('takes the published numbers and refuses every single changed digit of them', () => {
    // Bankgirot's own Bankgiro, and Radiohjälpen's Plusgiro 90 20 90-0.
    for (const number of ['50501055', '9020900']) {
      expect(luhnValid(number)).toBe(true);
      for (let index = 0; index < number.length; index++)
        for (let digit = 0; digit < 10; digit++) {
          if (String(digit) === number[index]) continue;
          expect(luhnValid(number.slice(0, index) + digit + number.slice(index + 1))).toBe(false);
        }
    }
  });
});

describe('checkPayoutAccount', () => {
  it('keeps a Bankgiro and a Plusgiro as digits, however they were typed, and writes them out as people read them', () => {
    const bankgiro = account(checkPayoutAccount('bankgiro', undefined, ' 5050-1055 '));
    expect(bankgiro).toEqual({ kind: 'bankgiro', clearingNumber: null, accountNumber: '50501055', bankName: null });
    expect(formatPayoutAccount(bankgiro)).toBe('Bankgiro 5050-1055');
    expect(maskPayoutAccount(bankgiro)).toBe('Bankgiro som slutar på 1055');
    const plusgiro = account(checkPayoutAccount('plusgiro', undefined, '90 20 90-0'));
    expect(formatPayoutAccount(plusgiro)).toBe('Plusgiro 902090-0');
  });

  it('refuses a wrong check digit and a wrong length of Bankgiro and Plusgiro, at the account number', () => {
    expect(refusal(checkPayoutAccount('bankgiro', undefined, '5050-1056'))).toEqual({
      field: 'account_number',
      message: 'Bankgironumret stämmer inte (fel kontrollsiffra). Kontrollera siffrorna.',
    });
    expect(refusal(checkPayoutAccount('bankgiro', undefined, '505-105'))?.message).toBe('Ett bankgironummer har 7 eller 8 siffror');
    expect(refusal(checkPayoutAccount('plusgiro', undefined, '90 20 90-1'))?.message).toContain('Plusgironumret stämmer inte');
    expect(refusal(checkPayoutAccount('plusgiro', undefined, '123456789'))?.message).toBe('Ett plusgironummer har 2 till 8 siffror');
    expect(refusal(checkPayoutAccount('bankgiro', undefined, '5050-105A'))?.field).toBe('account_number');
    expect(refusal(checkPayoutAccount('bankgiro', undefined, '  '))?.message).toBe('Fyll i kontonummer');
  });

  it("checks a bank account's clearing range, then its length and check digit, naming the bank", () => {
    const handelsbanken = account(checkPayoutAccount('bank', '6000', '123 456 789'));
    expect(formatPayoutAccount(handelsbanken)).toBe('Handelsbanken 6000, 123 456 789');
    expect(maskPayoutAccount(handelsbanken)).toBe('Bankkonto hos Handelsbanken som slutar på 6789');
    // Swedbank's five-digit clearing numbers starting with 8 (the fifth a check digit).
    expect(account(checkPayoutAccount('bank', '8327-9', '111 111 111-6')).clearingNumber).toBe('83279');

    expect(refusal(checkPayoutAccount('bank', '9999', '1234567'))).toEqual({
      field: 'clearing_number',
      message: 'Clearingnumret hör inte till någon bank i Sverige',
    });
    expect(refusal(checkPayoutAccount('bank', '12', '1234567'))?.field).toBe('clearing_number');
    expect(refusal(checkPayoutAccount('bank', undefined, '1234567'))?.message).toBe('Fyll i clearingnummer');
    expect(refusal(checkPayoutAccount('bank', '6000', '123456788'))).toEqual({
      field: 'account_number',
      message: 'Kontonumret stämmer inte för Handelsbanken (fel längd eller kontrollsiffra). Kontrollera siffrorna.',
    });
    expect(refusal(checkPayoutAccount('bank', '5000', '12345'))?.message).toContain('SEB');
  });
});

describe('ZSetPayoutAccountRequestSchema', () => {
  it('puts each refusal at its field, and requires the holder', () => {
    const result = ZSetPayoutAccountRequestSchema.safeParse({
      kind: 'bank',
      clearing_number: '9999',
      account_number: '1',
      holder_name: ' ',
    });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues).toContainEqual(['clearing_number', 'Clearingnumret hör inte till någon bank i Sverige']);
    expect(issues).toContainEqual(['holder_name', 'Fyll i kontohavarens namn (skolan eller föreningen)']);
    expect(
      ZSetPayoutAccountRequestSchema.safeParse({ kind: 'konto', account_number: '1', holder_name: 'Skolan' }).error?.issues[0]?.message,
    ).toBe('Välj kontotyp');
  });
});
