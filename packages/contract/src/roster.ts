import { z } from 'zod';
import { EMAIL_PATTERN, ZEmailSchema, ZFullNameSchema, ZNewPasswordSchema, ZIdParamSchema, idSchema, isReservedAddress } from './common.js';
import { TEXT_LIMITS } from './field-limits.js';

/**
 * A class-list pupil's sign-in name (issue 31): the folded first name, a dot, one or two letters of
 * the last name and a number where needed ('alva.ob', 'alva.ob2', 'anna-karin.li').
 */
export const USERNAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z]{1,2}[0-9]*$/i;

/**
 * The sign-in form's first field: an e-mail address or a username. What is neither keeps the
 * message sign-in has always given ('Ange en giltig e-postadress').
 */
export const ZSignInNameSchema = z
  .string({ error: 'E-post krävs' })
  .trim()
  .normalize('NFC')
  .min(1, 'E-post krävs')
  .max(TEXT_LIMITS.email, `E-postadressen får vara högst ${TEXT_LIMITS.email} tecken`)
  .refine((name) => USERNAME_PATTERN.test(name) || (EMAIL_PATTERN.test(name) && !isReservedAddress(name)), 'Ange en giltig e-postadress');

/** The most rows one class list takes: a school's year, not a town's register. */
export const ROSTER_MAX_ROWS = 200;

/**
 * One pupil of a class list as the server checks it row by row: a first and a last name, and
 * optionally a guardian's address. A refused row is answered with this schema's Swedish reason.
 */
export const ZRosterPupilSchema = z.object({
  full_name: ZFullNameSchema.refine((name) => name.trim().split(/\s+/).length >= 2, 'Skriv både för- och efternamn'),
  guardian_email: ZEmailSchema.optional(),
});
export type TRosterPupil = z.infer<typeof ZRosterPupilSchema>;

/**
 * The class list as sent: rows are only loosely typed here, so that one bad row is answered as
 * refused while the others are added (the server checks each with ZRosterPupilSchema).
 */
export const ZRosterRequestSchema = z.object({
  group_id: idSchema('Ogiltigt id för gruppen'),
  pupils: z
    .array(
      z.object({
        full_name: z.string({ error: 'Namn krävs' }).max(1000, 'Namnet är för långt'),
        guardian_email: z.string().max(1000, 'E-postadressen är för lång').optional(),
      }),
      { error: 'Klasslistan saknas' },
    )
    .min(1, 'Klasslistan är tom')
    .max(ROSTER_MAX_ROWS, `En klasslista får ha högst ${ROSTER_MAX_ROWS} rader`),
});
export type TRosterRequest = z.infer<typeof ZRosterRequestSchema>;

export const ROSTER_OUTCOMES = ['added', 'already_member', 'refused'] as const;
export type TRosterOutcome = (typeof ROSTER_OUTCOMES)[number];

export const ROSTER_OUTCOME_LABELS: Record<TRosterOutcome, string> = {
  added: 'Tillagd',
  already_member: 'Finns redan i gruppen',
  refused: 'Inte tillagd',
};

/** Each row's outcome, in the order sent; a refused row says why and changed nothing. */
export const ZRosterResponseSchema = z.object({
  rows: z.array(
    z.object({
      full_name: z.string(),
      outcome: z.enum(ROSTER_OUTCOMES),
      /** The reason a row was refused, in Swedish; null otherwise. */
      reason: z.string().nullable(),
      username: z.string().nullable(),
      /** A consent mail went to the guardian's address. */
      guardian_invited: z.boolean(),
    }),
  ),
  added: z.number(),
  refused: z.number(),
});
export type TRosterResponse = z.infer<typeof ZRosterResponseSchema>;

/** Sign-in slips for a group's class-list pupils without a guardian's address (a PDF). */
export const ZSignInSlipsRequestSchema = z.object({ group_id: ZIdParamSchema });
export type TSignInSlipsRequest = z.infer<typeof ZSignInSlipsRequestSchema>;

export const ZSlipCodeSchema = z
  .string({ error: 'Engångskod krävs' })
  .trim()
  .min(1, 'Engångskod krävs')
  .max(40, 'Engångskoden stämmer inte');

/** The pupil's first sign-in with the slip: username, the one-time code and a password of their own. */
export const ZRedeemSlipRequestSchema = z.object({
  username: z
    .string({ error: 'Användarnamn krävs' })
    .trim()
    .min(1, 'Användarnamn krävs')
    .max(TEXT_LIMITS.email, 'Användarnamnet stämmer inte'),
  code: ZSlipCodeSchema,
  new_password: ZNewPasswordSchema,
});
export type TRedeemSlipRequest = z.infer<typeof ZRedeemSlipRequestSchema>;
