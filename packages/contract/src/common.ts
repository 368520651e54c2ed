import { z } from 'zod';
import { toSingleLineText } from './text.js';
import { withoutWebAddress } from './web-address.js';
import { TEXT_LIMITS } from './field-limits.js';

/** What a name too long is told, wherever a name is asked for. */
export const NAME_TOO_LONG = `Namnet får vara högst ${TEXT_LIMITS.name} tecken`;

/** One field a refusal is about, by its name in the request body (absent: the whole body). */
export const ZFieldIssueSchema = z.object({ field: z.string().optional(), message: z.string() });
export type TFieldIssue = z.infer<typeof ZFieldIssueSchema>;

/**
 * Every error answer of the API: `{error: {code, message}}`, message in Swedish (DESIGN §4);
 * `details` names the fields a refusal is about, so a form can show it at them (issue 33).
 */
export const ZErrorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.array(ZFieldIssueSchema).optional() }),
});
export type TErrorResponse = z.infer<typeof ZErrorResponseSchema>;

/** Amounts in SEK with at most two decimals; the database keeps öre (DESIGN D5). */
export const ZSekSchema = z.number();

export const ZOkResponseSchema = z.object({ ok: z.literal(true) });
export type TOkResponse = z.infer<typeof ZOkResponseSchema>;

/**
 * An address as people in Sweden have them: letters of any script (å, ä, ö) before and after the
 * @ (RFC 6531/6532, sent with SMTPUTF8), digits and the usual `.+_-'` marks; no leading, trailing
 * or double dot, a dotted domain ending in letters. zod's own `.email()` refuses every non-ASCII
 * letter (issue 19, decision 030).
 */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[\p{L}\p{M}\p{N}.!#$%&'*+/=?^_`{|}~-]{1,64}(?<!\.)@(?:[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?\.)+[\p{L}\p{M}]{2,63}$/u;

export const ZEmailSchema = z
  .string({ error: 'E-post krävs' })
  .trim()
  // One spelling of 'ä': a precomposed letter, not 'a' with a combining diaeresis (macOS typing),
  // so the same address always finds the same account.
  .normalize('NFC')
  .min(1, 'E-post krävs')
  .max(TEXT_LIMITS.email, `E-postadressen får vara högst ${TEXT_LIMITS.email} tecken`)
  .regex(EMAIL_PATTERN, 'Ange en giltig e-postadress')
  .refine((address) => !isReservedAddress(address), 'Adresser som slutar på .invalid finns inte. Ange en riktig e-postadress.');

/**
 * An address no person can have: the `.invalid` top-level domain (RFC 2606), where an erased
 * account's tombstone address lives (decision 050). Every address that enters the portal passes
 * `ZEmailSchema`, so none can ever equal a tombstone, old or new.
 */
export function isReservedAddress(address: string): boolean {
  return /\.invalid$/.test(address.trim().toLowerCase());
}

/** `2025-02-30` passes the pattern and `Date.parse` (it rolls over), but is no calendar day. */
function isCalendarDay(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Calendar date `YYYY-MM-DD` (Europe/Stockholm). */
export const ZDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Ange datum som ÅÅÅÅ-MM-DD')
  .refine(isCalendarDay, 'Ogiltigt datum');

/** The largest PostgreSQL `integer`, the type of every id column: a larger id fails in the query, not in the check. */
const MAX_ID = 2_147_483_647;

/** An integer as a person writes one: digits only, no sign, no leading zero, no space, fraction, exponent or other base. */
const PLAIN_DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/**
 * Paths, query strings and form fields carry integers as text. Only plain decimal text is read as
 * a number: `Number()` alone also reads `0x10`, `+1`, `00001`, `1.0`, ` 1`, `1e1` and '' (as 0),
 * so another spelling would reach the same record. Anything else is left for the check to refuse.
 */
export const integerFromText = (value: unknown) => (typeof value === 'string' && PLAIN_DECIMAL.test(value) ? Number(value) : value);

/**
 * Every id the API accepts, in a path, a query string or a body: a positive integer that fits an
 * id column. `message` is what the form says about a bad one; `missingMessage`, when given, what it
 * says about none at all.
 */
export const idSchema = (message = 'Ogiltigt id', missingMessage?: string) =>
  z.preprocess(
    integerFromText,
    z
      .number({ error: (issue) => (issue.input === undefined && missingMessage) || message })
      .int(message)
      .positive(message)
      .max(MAX_ID, message),
  );

export const ZIdParamSchema = idSchema();

export const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = TEXT_LIMITS.password;
const PASSWORD_TOO_LONG = `Lösenordet får vara högst ${PASSWORD_MAX_LENGTH} tecken`;

/** A new password: an empty one is missing ('Lösenord krävs', issue 33) before it is too short. */
export const ZNewPasswordSchema = z
  .string({ error: 'Lösenord krävs' })
  .min(1, 'Lösenord krävs')
  .min(PASSWORD_MIN_LENGTH, 'Lösenordet måste vara minst 8 tecken')
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG);

/** A password given to prove who one is (sign-in, a change, a deletion); `missing` names what it is for. */
export const ZGivenPasswordSchema = (missing = 'Lösenord krävs') =>
  z.string({ error: missing }).min(1, missing).max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG);

/**
 * Text a person types for a name, a title or a phone number: stored as one line
 * (`toSingleLineText`), so no line break, escape or NUL in it can start a row or a formula
 * wherever it is written out (CSV, PDF, logs). `error` is what a missing or non-text value gets.
 */
export const ZSingleLineTextSchema = (error?: string) => z.string(error === undefined ? undefined : { error }).overwrite(toSingleLineText);

/** The name an erased account is shown by everywhere (leaderboards, lists, CSV, payout PDFs). */
export const ERASED_SELLER_NAME = 'Borttagen säljare';
export const RESERVED_NAME_MESSAGE = 'Det namnet visas för borttagna konton. Välj ett annat namn.';

/**
 * The rules of every name a person sets that someone else sees: no web address in it, and never the
 * erased account's name, which would make a living pupil look erased (issue 28: no reserved value
 * can be typed).
 */
export const personName = <T extends z.ZodString>(schema: T): T =>
  withoutWebAddress(schema).refine(
    (name) => name.trim().toLocaleLowerCase('sv') !== ERASED_SELLER_NAME.toLocaleLowerCase('sv'),
    RESERVED_NAME_MESSAGE,
  );

export const ZFullNameSchema = personName(ZSingleLineTextSchema('Namn krävs').min(1, 'Namn krävs').max(TEXT_LIMITS.name, NAME_TOO_LONG));

/**
 * A phone number as people write one: digits, with spaces, dashes, brackets and a leading + as they
 * like ('070-123 45 67', '+46 70 123 45 67'), 6 to 15 digits (E.164's longest). Empty clears it.
 * Letters and symbols are no phone number (issue 33: 'abc ☎️ 123' was saved).
 */
export const ZPhoneSchema = ZSingleLineTextSchema()
  .max(TEXT_LIMITS.phone, `Telefonnumret får vara högst ${TEXT_LIMITS.phone} tecken`)
  .refine(
    (value) => value.trim() === '' || (/^\+?[0-9(][0-9 ()-]*$/.test(value.trim()) && /^(\D*\d){6,15}\D*$/.test(value)),
    'Ange ett telefonnummer med siffror, till exempel 070-123 45 67',
  );
