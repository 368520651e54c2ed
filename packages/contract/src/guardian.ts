import { z } from 'zod';
import { ZEmailSchema, ZFullNameSchema, ZGivenPasswordSchema, ZNewPasswordSchema, idSchema } from './common.js';
import { ZAliasSchema, ZPublicNameChoiceSchema } from './public-name.js';

/** A guardian's consent code from the mail's link (issue 22); its form is checked by the server. */
export const ZGuardianCodeSchema = z
  .string({ error: 'Koden saknas i länken' })
  .trim()
  .min(10, 'Länken till godkännandet är ofullständig')
  .max(200, 'Länken till godkännandet är ofullständig');

export const ZGuardianConsentQuerySchema = z.object({ code: ZGuardianCodeSchema });
export type TGuardianConsentQuery = z.infer<typeof ZGuardianConsentQuerySchema>;

/** What the consent page shows a guardian about the child whose account waits for them. */
export const ZGuardianConsentResponseSchema = z.object({
  /**
   * `email` is null and `username` set for a pupil a teacher added from a class list (issue 31):
   * the guardian then also chooses the pupil's password and how buyers see the name.
   */
  child: z.object({ full_name: z.string(), email: z.string().nullable(), username: z.string().nullable(), groups: z.array(z.string()) }),
  /** The address the child gave: prefilled as the guardian's own account's address. */
  guardian_email: z.string(),
  /** When the code stops working (ISO instant). */
  expires_at: z.string(),
});
export type TGuardianConsentResponse = z.infer<typeof ZGuardianConsentResponseSchema>;

/**
 * The guardian's answer. Approving needs the guardian's own account: a new one (`account: 'new'`
 * with name, e-mail and a password) or an existing one (`account: 'existing'`, e-mail and password).
 */
export const ZGuardianConsentRequestSchema = z
  .object({
    code: ZGuardianCodeSchema,
    decision: z.enum(['approve', 'decline'], { error: 'Välj om du godkänner eller avböjer' }),
    account: z.enum(['new', 'existing'], { error: 'Välj nytt konto eller befintligt konto' }).optional(),
    full_name: ZFullNameSchema.optional(),
    email: ZEmailSchema.optional(),
    password: ZGivenPasswordSchema().optional(),
    /** For a class-list pupil (issue 31): the password the pupil signs in with, chosen by the guardian. */
    child_password: ZNewPasswordSchema.optional(),
    /** For a class-list pupil: how buyers see the pupil's name. */
    child_public_name: ZPublicNameChoiceSchema.optional(),
    child_alias: ZAliasSchema.optional(),
  })
  .superRefine((value, context) => {
    if (value.decision !== 'approve') return;
    if (value.account === undefined) {
      context.addIssue({ code: 'custom', path: ['account'], message: 'Skapa ett konto eller logga in för att godkänna' });
      return;
    }
    if (value.email === undefined) context.addIssue({ code: 'custom', path: ['email'], message: 'E-post krävs' });
    if (value.account === 'new') {
      if (value.full_name === undefined) context.addIssue({ code: 'custom', path: ['full_name'], message: 'Namn krävs' });
      const password = ZNewPasswordSchema.safeParse(value.password);
      if (!password.success) {
        context.addIssue({ code: 'custom', path: ['password'], message: password.error.issues[0]?.message ?? 'Lösenord krävs' });
      }
    } else if (!value.password) {
      context.addIssue({ code: 'custom', path: ['password'], message: 'Lösenord krävs' });
    }
    if (value.child_public_name === 'alias' && !value.child_alias) {
      context.addIssue({ code: 'custom', path: ['child_alias'], message: 'Skriv ett alias, eller välj förnamn eller hela namnet' });
    }
  });
export type TGuardianConsentRequest = z.infer<typeof ZGuardianConsentRequestSchema>;

/** Approving signs the guardian in (the answer of a login); declining erases the child's account. */
export const ZGuardianConsentResultSchema = z.union([
  z.object({ decision: z.literal('approve'), token: z.string() }),
  z.object({ decision: z.literal('decline'), ok: z.literal(true) }),
]);
export type TGuardianConsentResult = z.infer<typeof ZGuardianConsentResultSchema>;

/** The children a signed-in guardian has approved, for the guardian view's switcher. */
export const ZGuardianChildrenResponseSchema = z.object({
  children: z.array(
    z.object({
      user_id: z.number(),
      full_name: z.string(),
      /** A class-list pupil's sign-in name (issue 31), which the guardian sees and can set the password of. */
      username: z.string().nullable(),
      group_name: z.string().nullable(),
    }),
  ),
});
export type TGuardianChildrenResponse = z.infer<typeof ZGuardianChildrenResponseSchema>;

export const ZGuardianChildParamsSchema = z.object({ id: idSchema('Ogiltigt id för barnet') });
export type TGuardianChildParams = z.infer<typeof ZGuardianChildParamsSchema>;

/** The guardian of a class-list pupil sets the pupil's password (issue 31). */
export const ZGuardianChildPasswordRequestSchema = z.object({ new_password: ZNewPasswordSchema });
export type TGuardianChildPasswordRequest = z.infer<typeof ZGuardianChildPasswordRequestSchema>;
