import { z } from 'zod';
import { CAMPAIGN_MAX_DAYS } from './campaign-days.js';
import { ZDateSchema, ZIdParamSchema, ZSingleLineTextSchema } from './common.js';
import { TEXT_LIMITS } from './field-limits.js';
import { daysBetween, stockholmToday } from './goal-days.js';
import { toMultiLineText } from './text.js';
import { containsWebAddress, withoutWebAddress } from './web-address.js';

/**
 * Issue 31: the days of a class's campaign, Stockholm days. The last day is not in the past, not
 * before the first, and at most a year after it.
 */
export const ZCampaignRequestSchema = z
  .object({ group_id: ZIdParamSchema, starts_on: ZDateSchema, ends_on: ZDateSchema })
  .superRefine((campaign, context) => {
    if (campaign.ends_on < campaign.starts_on) {
      context.addIssue({ code: 'custom', path: ['ends_on'], message: 'Slutdatumet kan inte vara före startdatumet' });
    } else if (daysBetween(campaign.starts_on, campaign.ends_on) >= CAMPAIGN_MAX_DAYS) {
      context.addIssue({ code: 'custom', path: ['ends_on'], message: 'Försäljningen får pågå högst ett år' });
    } else if (campaign.ends_on < stockholmToday()) {
      context.addIssue({ code: 'custom', path: ['ends_on'], message: 'Slutdatumet har redan passerat' });
    }
  });
export type TCampaignRequest = z.infer<typeof ZCampaignRequestSchema>;

/** A campaign as every answer shows it; `days_left` counts the selling days left, today included. */
export const ZCampaignSchema = z.object({
  starts_on: z.string(),
  ends_on: z.string(),
  days_left: z.number().int(),
  state: z.enum(['upcoming', 'running', 'ended']),
});
export type TCampaign = z.infer<typeof ZCampaignSchema>;

export const ZCampaignResponseSchema = z.object({ ok: z.literal(true), campaign: ZCampaignSchema });
export type TCampaignResponse = z.infer<typeof ZCampaignResponseSchema>;

const CLOSING_NOTE_REQUIRED = 'Skriv vad pengarna blev';

/** Issue 31 point 5: what the money became, written after the campaign has ended. */
export const ZClosingNoteRequestSchema = z.object({
  group_id: ZIdParamSchema,
  text: z
    .string({ error: CLOSING_NOTE_REQUIRED })
    .overwrite(toMultiLineText)
    .min(1, CLOSING_NOTE_REQUIRED)
    .max(TEXT_LIMITS.closingNote, `Texten får vara högst ${TEXT_LIMITS.closingNote} tecken`),
});
export type TClosingNoteRequest = z.infer<typeof ZClosingNoteRequestSchema>;

export const ZClosingNoteSchema = z.object({ text: z.string(), written_at: z.string() });
export type TClosingNote = z.infer<typeof ZClosingNoteSchema>;

export const ZClosingNoteResponseSchema = z.object({ ok: z.literal(true), closing_note: ZClosingNoteSchema, mailed: z.number().int() });
export type TClosingNoteResponse = z.infer<typeof ZClosingNoteResponseSchema>;

const NEW_GROUP_NAME_REQUIRED = 'Ange ett namn på den nya gruppen';

/**
 * Issue 31 point 6: next term's group, with the pupils the teacher ticked (`membership_ids`, seller
 * memberships of the old group).
 */
export const ZCloneGroupRequestSchema = z.object({
  group_id: ZIdParamSchema,
  name: withoutWebAddress(
    ZSingleLineTextSchema(NEW_GROUP_NAME_REQUIRED)
      .min(1, NEW_GROUP_NAME_REQUIRED)
      .max(TEXT_LIMITS.groupName, `Gruppnamnet får vara högst ${TEXT_LIMITS.groupName} tecken`),
  ),
  membership_ids: z.array(ZIdParamSchema).max(1000),
});
export type TCloneGroupRequest = z.infer<typeof ZCloneGroupRequestSchema>;

export const ZCloneGroupResponseSchema = z.object({
  ok: z.literal(true),
  group: z.object({ id: z.number().int(), name: z.string(), code: z.string() }),
  pupils: z.number().int(),
  /** Whether the old group was archived now, or will be once its commission is paid out. */
  old_group: z.enum(['archived', 'archived_when_settled']),
});
export type TCloneGroupResponse = z.infer<typeof ZCloneGroupResponseSchema>;

/** Issue 32: the class link of a group and the teacher's text for the buyer pages, for the group's admin. */
export const ZClassLinkQuerySchema = z.object({ group_id: ZIdParamSchema });
export type TClassLinkQuery = z.infer<typeof ZClassLinkQuerySchema>;

export const ZClassLinkResponseSchema = z.object({
  /** `{PUBLIC_URL}/k/{code}`: the buyer page of the whole class. */
  class_link: z.string(),
  buyer_greeting: z.string().nullable(),
});
export type TClassLinkResponse = z.infer<typeof ZClassLinkResponseSchema>;

/** The teacher's text on every buyer page of the class; empty takes it away. Strangers read it, so it holds no web address. */
export const ZBuyerGreetingRequestSchema = z.object({
  group_id: ZIdParamSchema,
  text: z
    .string()
    .overwrite(toMultiLineText)
    .max(TEXT_LIMITS.buyerGreeting, `Texten får vara högst ${TEXT_LIMITS.buyerGreeting} tecken`)
    .refine((text) => !containsWebAddress(text), 'Texten till köparna får inte innehålla en webbadress'),
});
export type TBuyerGreetingRequest = z.infer<typeof ZBuyerGreetingRequestSchema>;

export const ZBuyerGreetingResponseSchema = z.object({ ok: z.literal(true), buyer_greeting: z.string().nullable() });
export type TBuyerGreetingResponse = z.infer<typeof ZBuyerGreetingResponseSchema>;
