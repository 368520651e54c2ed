import Kontonummer from 'kontonummer';
import { z } from 'zod';
import { idSchema, ZSingleLineTextSchema } from './common.js';
import { TEXT_LIMITS } from './field-limits.js';

/**
 * Where a group's commission is paid (issue 30 point 6): a Bankgiro, a Plusgiro or a bank account
 * with its clearing number, and the name of the account holder (the school or the association,
 * never a pupil). Every number is checked the way Bankgirot checks it before it is saved: the
 * mod-10 (Luhn) check digit of Bankgiro and Plusgiro, and a bank account's clearing range, length
 * and check digit by the kontonummer package (Bankgirot's 'Bankernas kontonummeruppbyggnad').
 */
export const ZPayoutAccountKindSchema = z.enum(['bankgiro', 'plusgiro', 'bank'], { error: 'Välj kontotyp' });
export type TPayoutAccountKind = z.infer<typeof ZPayoutAccountKindSchema>;

export const PAYOUT_ACCOUNT_KIND_LABELS: Record<TPayoutAccountKind, string> = {
  bankgiro: 'Bankgiro',
  plusgiro: 'Plusgiro',
  bank: 'Bankkonto',
};

/** The mod-10 check of Bankgirot's numbers: every second digit from the right doubled. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** People write numbers with spaces, dashes, commas and dots between the groups of digits. */
const SEPARATORS = /[\s\-,.]/g;
const ONLY_DIGITS = /^\d+$/;

export type TCheckedPayoutAccount = {
  kind: TPayoutAccountKind;
  clearingNumber: string | null;
  accountNumber: string;
  bankName: string | null;
};
export type TPayoutAccountRefusal = { field: 'clearing_number' | 'account_number'; message: string };

/** Checks an account as typed, and gives it in the digits it is stored in, or the field that is wrong and why. */
export function checkPayoutAccount(
  kind: TPayoutAccountKind,
  typedClearing: string | undefined,
  typedNumber: string,
): { account: TCheckedPayoutAccount } | { refusal: TPayoutAccountRefusal } {
  const number = typedNumber.replace(SEPARATORS, '');
  const refuse = (field: TPayoutAccountRefusal['field'], message: string) => ({ refusal: { field, message } });
  if (number === '') return refuse('account_number', 'Fyll i kontonummer');
  if (!ONLY_DIGITS.test(number)) return refuse('account_number', 'Ett kontonummer har bara siffror (och mellanslag eller bindestreck)');

  if (kind === 'bankgiro') {
    if (number.length < 7 || number.length > 8) return refuse('account_number', 'Ett bankgironummer har 7 eller 8 siffror');
    if (!luhnValid(number)) return refuse('account_number', 'Bankgironumret stämmer inte (fel kontrollsiffra). Kontrollera siffrorna.');
    return { account: { kind, clearingNumber: null, accountNumber: number, bankName: null } };
  }
  if (kind === 'plusgiro') {
    if (number.length < 2 || number.length > 8) return refuse('account_number', 'Ett plusgironummer har 2 till 8 siffror');
    if (!luhnValid(number)) return refuse('account_number', 'Plusgironumret stämmer inte (fel kontrollsiffra). Kontrollera siffrorna.');
    return { account: { kind, clearingNumber: null, accountNumber: number, bankName: null } };
  }

  const clearing = (typedClearing ?? '').replace(SEPARATORS, '');
  if (clearing === '') return refuse('clearing_number', 'Fyll i clearingnummer');
  if (!ONLY_DIGITS.test(clearing) || clearing.length < 4 || clearing.length > 5)
    return refuse('clearing_number', 'Ett clearingnummer har 4 siffror (Swedbank ibland 5, som börjar på 8)');
  let bankName: string;
  try {
    bankName = Kontonummer.getSortingCodeInfo(clearing).bankName;
  } catch {
    return refuse('clearing_number', 'Clearingnumret hör inte till någon bank i Sverige');
  }
  try {
    const parsed = Kontonummer.parse(clearing, number, { mode: 'strict' });
    return { account: { kind, clearingNumber: parsed.sortingCode, accountNumber: parsed.accountNumber, bankName } };
  } catch {
    return refuse('account_number', `Kontonumret stämmer inte för ${bankName} (fel längd eller kontrollsiffra). Kontrollera siffrorna.`);
  }
}

/** The account written out in full, as the payout document and the superadmin show it. */
export function formatPayoutAccount(account: Pick<TCheckedPayoutAccount, 'kind' | 'clearingNumber' | 'accountNumber'>): string {
  const { kind, accountNumber: number } = account;
  if (kind === 'bankgiro') return `Bankgiro ${number.slice(0, -4)}-${number.slice(-4)}`;
  if (kind === 'plusgiro') return `Plusgiro ${number.slice(0, -1)}-${number.slice(-1)}`;
  const parsed = Kontonummer.parse(account.clearingNumber ?? '', number, { mode: 'lax' });
  return `${parsed.bankName} ${parsed.format('pretty')}`;
}

/** The account as the teacher sees it: what kind, and only its last four digits. */
export function maskPayoutAccount(account: Pick<TCheckedPayoutAccount, 'kind' | 'clearingNumber' | 'accountNumber'>): string {
  const lastFour = account.accountNumber.slice(-4);
  if (account.kind !== 'bank') return `${PAYOUT_ACCOUNT_KIND_LABELS[account.kind]} som slutar på ${lastFour}`;
  const bankName = Kontonummer.parse(account.clearingNumber ?? '', account.accountNumber, { mode: 'lax' }).bankName;
  return `Bankkonto hos ${bankName} som slutar på ${lastFour}`;
}

const emptyAsMissing = (value: unknown) => (value === '' || value === null ? undefined : value);

export const HOLDER_NAME_TOO_LONG = `Kontohavarens namn får vara högst ${TEXT_LIMITS.name} tecken`;

/** The superadmin sets a group's payout details; the checks are the ones the web form runs as it is filled in. */
export const ZSetPayoutAccountRequestSchema = z
  .object({
    kind: ZPayoutAccountKindSchema,
    clearing_number: z.preprocess(
      emptyAsMissing,
      z.string({ error: 'Ogiltigt clearingnummer' }).max(20, 'Ogiltigt clearingnummer').optional(),
    ),
    account_number: z.string({ error: 'Fyll i kontonummer' }).max(40, 'Ett kontonummer har högst 15 siffror'),
    holder_name: ZSingleLineTextSchema('Fyll i kontohavarens namn')
      .min(2, 'Fyll i kontohavarens namn (skolan eller föreningen)')
      .max(TEXT_LIMITS.name, HOLDER_NAME_TOO_LONG),
  })
  .superRefine((value, context) => {
    const checked = checkPayoutAccount(value.kind, value.clearing_number, value.account_number);
    if ('refusal' in checked) context.addIssue({ code: 'custom', path: [checked.refusal.field], message: checked.refusal.message });
  });
export type TSetPayoutAccountRequest = z.infer<typeof ZSetPayoutAccountRequestSchema>;

/** A group's payout details in full (the superadmin's view). */
export const ZPayoutAccountSchema = z.object({
  kind: ZPayoutAccountKindSchema,
  clearing_number: z.string().nullable(),
  account_number: z.string(),
  holder_name: z.string(),
  /** The whole account written out: 'Bankgiro 5050-1055', 'Handelsbanken 6000, 123 456 789'. */
  display: z.string(),
  updated_at: z.string(),
});
export type TPayoutAccount = z.infer<typeof ZPayoutAccountSchema>;

export const ZPayoutAccountResponseSchema = z.object({ payout_account: ZPayoutAccountSchema.nullable() });
export type TPayoutAccountResponse = z.infer<typeof ZPayoutAccountResponseSchema>;

export const ZSetPayoutAccountResponseSchema = z.object({ ok: z.literal(true), payout_account: ZPayoutAccountSchema });
export type TSetPayoutAccountResponse = z.infer<typeof ZSetPayoutAccountResponseSchema>;

/** What the group's teacher sees: the kind and the last four digits, and the holder. */
export const ZMaskedPayoutAccountSchema = z.object({ masked: z.string(), holder_name: z.string() });
export const ZGroupPayoutAccountQuerySchema = z.object({ group_id: idSchema('Ogiltig grupp', 'Grupp krävs') });
export const ZGroupPayoutAccountResponseSchema = z.object({ payout_account: ZMaskedPayoutAccountSchema.nullable() });
export type TGroupPayoutAccountResponse = z.infer<typeof ZGroupPayoutAccountResponseSchema>;
