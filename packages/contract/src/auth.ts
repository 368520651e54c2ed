import { z } from 'zod';
import { ZEmailSchema, ZFullNameSchema, ZGivenPasswordSchema, ZNewPasswordSchema } from './common.js';
import { ZSignInNameSchema } from './roster.js';

export const ZTokenResponseSchema = z.object({ token: z.string() });
export type TTokenResponse = z.infer<typeof ZTokenResponseSchema>;

/** `email` is the sign-in form's first field: an address, or a class-list pupil's username (issue 31). */
export const ZLoginRequestSchema = z.object({
  email: ZSignInNameSchema,
  password: ZGivenPasswordSchema(),
});
export type TLoginRequest = z.infer<typeof ZLoginRequestSchema>;

export const GUARDIAN_EMAIL_REQUIRED =
  'Ange e-postadressen till en vårdnadshavare. Den som är under 13 år behöver en vårdnadshavares godkännande.';
export const GUARDIAN_EMAIL_OWN = 'Vårdnadshavarens e-postadress kan inte vara din egen.';

/** The registration's fields; `ZRegisterSellerRequestSchema` adds the rule of a guardian's address. */
export const ZRegisterSellerFieldsSchema = z.object({
  full_name: ZFullNameSchema,
  email: ZEmailSchema,
  password: ZNewPasswordSchema,
  group_code: z.string({ error: 'Gruppkod krävs' }).trim().min(1, 'Gruppkod krävs').max(32, 'Okänd gruppkod'),
  under_13: z.boolean({ error: 'Ange om säljaren är under 13 år' }).optional(),
  guardian_email: ZEmailSchema.optional(),
});

/**
 * A seller under 13 (lag 2018:218, 2 kap. 4 §) names a guardian, who is mailed a link to consent
 * (issue 22). The guardian's address is required then, and may not be the child's own.
 */
export function guardianEmailIssue(value: { under_13?: boolean; email: string; guardian_email?: string }): string | null {
  if (!value.under_13) return null;
  if (value.guardian_email === undefined || value.guardian_email.trim() === '') return GUARDIAN_EMAIL_REQUIRED;
  if (value.guardian_email.trim().toLowerCase() === value.email.trim().toLowerCase()) return GUARDIAN_EMAIL_OWN;
  return null;
}

export const ZRegisterSellerRequestSchema = ZRegisterSellerFieldsSchema.superRefine((value, context) => {
  const issue = guardianEmailIssue(value);
  if (issue) context.addIssue({ code: 'custom', path: ['guardian_email'], message: issue });
});
export type TRegisterSellerRequest = z.infer<typeof ZRegisterSellerRequestSchema>;

export const ZForgotPasswordRequestSchema = z.object({ email: ZEmailSchema });
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequestSchema>;

export const ZResetCodeSchema = z
  .string({ error: 'Kod saknas' })
  .min(10, 'Ogiltig återställningslänk')
  .max(200, 'Ogiltig återställningslänk');

export const ZVerifyResetCodeRequestSchema = z.object({ code: ZResetCodeSchema });
export type TVerifyResetCodeRequest = z.infer<typeof ZVerifyResetCodeRequestSchema>;

export const ZResetPasswordRequestSchema = z.object({ code: ZResetCodeSchema, new_password: ZNewPasswordSchema });
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequestSchema>;

/** The access token's payload (the middle part the web decodes, spec §3). */
export const ZAccessTokenClaimsSchema = z.object({
  sub: z.string(),
  exp: z.number(),
  iat: z.number().optional(),
  ver: z.number().optional(),
});
export type TAccessTokenClaims = z.infer<typeof ZAccessTokenClaimsSchema>;
