import { z } from 'zod';
import { personName, ZIdParamSchema, ZSingleLineTextSchema } from './common.js';
import { TEXT_LIMITS } from './field-limits.js';

/** How buyers see a seller (issue 22): the first name (the default), the whole name, or an alias. */
export const ZPublicNameChoiceSchema = z.enum(['first_name', 'full_name', 'alias'], { error: 'Välj hur ditt namn ska visas' });
export type TPublicNameChoice = z.infer<typeof ZPublicNameChoiceSchema>;

export const PUBLIC_NAME_LABELS: Record<TPublicNameChoice, string> = {
  first_name: 'Förnamn',
  full_name: 'Hela namnet',
  alias: 'Alias',
};

/** An alias is a name like any other: one line, no control characters, no web address, not the erased name. */
export const ZAliasSchema = personName(
  ZSingleLineTextSchema('Aliaset måste vara text').max(TEXT_LIMITS.alias, `Aliaset får vara högst ${TEXT_LIMITS.alias} tecken`),
);

/** The choice and the alias; an alias is required when it is chosen, and may be kept for a protected identity. */
export const ZPublicNameRequestSchema = z
  .object({
    public_name: ZPublicNameChoiceSchema,
    alias: ZAliasSchema.nullish(),
  })
  .refine((body) => body.public_name !== 'alias' || (body.alias ?? '').length > 0, {
    message: 'Skriv ett alias, eller välj förnamn eller hela namnet',
    path: ['alias'],
  });
export type TPublicNameRequest = z.infer<typeof ZPublicNameRequestSchema>;

/** The choice as stored, and the name buyers now see. */
export const ZPublicNameResponseSchema = z.object({
  public_name: ZPublicNameChoiceSchema,
  alias: z.string().nullable(),
  /** Under 13: the guardian chooses (lag 2018:218), the pupil only sees the choice. */
  chosen_by_guardian: z.boolean(),
  public_seller_name: z.string(),
});
export type TPublicNameResponse = z.infer<typeof ZPublicNameResponseSchema>;

/** The class's pupils for the group admin (and a superadmin), with their protected-identity mark. */
export const ZGroupMembersQuerySchema = z.object({ group_id: ZIdParamSchema });
export type TGroupMembersQuery = z.infer<typeof ZGroupMembersQuerySchema>;

export const ZGroupMemberSchema = z.object({
  membership_id: z.number(),
  user_id: z.number(),
  full_name: z.string(),
  role: z.enum(['seller', 'admin']),
  protected_identity: z.boolean(),
});
export type TGroupMember = z.infer<typeof ZGroupMemberSchema>;

export const ZGroupMembersResponseSchema = z.object({ items: z.array(ZGroupMemberSchema) });
export type TGroupMembersResponse = z.infer<typeof ZGroupMembersResponseSchema>;

export const ZSetProtectedIdentityRequestSchema = z.object({
  group_id: ZIdParamSchema,
  membership_id: ZIdParamSchema,
  protected: z.boolean({ error: 'Ange om eleven har skyddade personuppgifter' }),
});
export type TSetProtectedIdentityRequest = z.infer<typeof ZSetProtectedIdentityRequestSchema>;

export const ZSetProtectedIdentityResponseSchema = z.object({ ok: z.literal(true), protected: z.boolean() });
export type TSetProtectedIdentityResponse = z.infer<typeof ZSetProtectedIdentityResponseSchema>;
