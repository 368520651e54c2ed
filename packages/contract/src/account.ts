import { z } from 'zod';
import { ZEmailSchema, ZFullNameSchema, ZIdParamSchema, ZGivenPasswordSchema, ZNewPasswordSchema, ZPhoneSchema } from './common.js';

/** The mail a person has opted in to (issue 20): 'Mejla mig när jag säljer' and, for group admins, the weekly summary. */
export const ZNotificationSettingsSchema = z.object({ sale_mail: z.boolean(), weekly_summary: z.boolean() });
export type TNotificationSettings = z.infer<typeof ZNotificationSettingsSchema>;

export const ZProfileResponseSchema = z.object({
  /** `email` is what the person signs in with: the address, or for a pupil of a class list without one the username, which `username` holds then too. */
  user: z.object({
    id: z.number(),
    full_name: z.string(),
    email: z.string(),
    username: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  group_hint: z.object({ id: z.number().nullable() }),
  /**
   * What the account is, so the settings show what it has (issue 33): a member of a group sells (the
   * name buyers see, the sale mail); a guardian of an approved child manages the child's elsewhere.
   */
  account: z.object({ sells: z.boolean(), is_guardian: z.boolean() }),
  notifications: ZNotificationSettingsSchema.extend({
    /** The weekly summary is offered to group admins only (the admin of at least one group). */
    weekly_summary_offered: z.boolean(),
  }),
});
export type TProfileResponse = z.infer<typeof ZProfileResponseSchema>;

export const ZUpdateProfileRequestSchema = z.object({
  full_name: ZFullNameSchema,
  phone: ZPhoneSchema.nullish(),
});
export type TUpdateProfileRequest = z.infer<typeof ZUpdateProfileRequestSchema>;

export const ZChangePasswordRequestSchema = z.object({
  current_password: ZGivenPasswordSchema('Nuvarande lösenord krävs'),
  new_password: ZNewPasswordSchema,
});
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequestSchema>;

export const ZChangeEmailRequestSchema = z.object({
  new_email: ZEmailSchema,
  current_password: ZGivenPasswordSchema('Nuvarande lösenord krävs'),
});
export type TChangeEmailRequest = z.infer<typeof ZChangeEmailRequestSchema>;

/**
 * A password or e-mail change ends every other session; the one that made it goes on with this
 * access token (the old one is refused from now on).
 */
export const ZSessionRenewedResponseSchema = z.object({ ok: z.literal(true), token: z.string() });
export type TSessionRenewedResponse = z.infer<typeof ZSessionRenewedResponseSchema>;

export const ZMembershipRoleSchema = z.enum(['seller', 'admin']);
export type TMembershipRole = z.infer<typeof ZMembershipRoleSchema>;

/** Group membership as the switcher lists it (spec §3). */
export const ZAccountGroupSchema = z.object({
  group_id: z.number(),
  group_name: z.string(),
  group_code: z.string(),
  role: ZMembershipRoleSchema,
  is_active: z.boolean(),
  archived: z.boolean(),
});
export type TAccountGroup = z.infer<typeof ZAccountGroupSchema>;

export const ZAccountGroupsResponseSchema = z.object({ groups: z.array(ZAccountGroupSchema) });
export type TAccountGroupsResponse = z.infer<typeof ZAccountGroupsResponseSchema>;

export const ZSwitchGroupRequestSchema = z.object({ group_id: ZIdParamSchema });
export type TSwitchGroupRequest = z.infer<typeof ZSwitchGroupRequestSchema>;

/** Either opt-in or both; what is left out stays as it is. */
export const ZUpdateNotificationsRequestSchema = z
  .object({
    sale_mail: z.boolean({ error: 'Ange ja eller nej' }).optional(),
    weekly_summary: z.boolean({ error: 'Ange ja eller nej' }).optional(),
  })
  .refine((body) => body.sale_mail !== undefined || body.weekly_summary !== undefined, { error: 'Ange vilken inställning som ska ändras' });
export type TUpdateNotificationsRequest = z.infer<typeof ZUpdateNotificationsRequestSchema>;

export const ZUpdateNotificationsResponseSchema = ZNotificationSettingsSchema;
export type TUpdateNotificationsResponse = z.infer<typeof ZUpdateNotificationsResponseSchema>;
