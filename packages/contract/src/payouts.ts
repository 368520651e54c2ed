import { z } from 'zod';
import { ZDateSchema, ZIdParamSchema, ZSekSchema, idSchema } from './common.js';

/** Spec §5: what the 'Skapa ny avräkning' form says when a field is left empty. */
export const PAYOUT_FIELDS_REQUIRED_MESSAGE = 'Fyll i alla fält för avräkningen';
/** Spec §5: from after to. */
export const PAYOUT_DATE_RANGE_MESSAGE = 'Från-datum kan inte vara efter Till-datum.';

/** HTML forms send an empty field as ''; it means "not given", as a missing one does. */
const emptyAsMissing = (value: unknown) => (value === '' || value === null ? undefined : value);
const requiredOr = (invalidMessage: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? PAYOUT_FIELDS_REQUIRED_MESSAGE : invalidMessage;

const ZRequiredDateSchema = z.preprocess(
  emptyAsMissing,
  z
    .string({ error: requiredOr('Ogiltigt datum') })
    .trim()
    .pipe(ZDateSchema),
);
const ZOptionalDateSchema = z.preprocess(emptyAsMissing, z.string().trim().pipe(ZDateSchema).optional());

const fromNotAfterTo = (range: { from?: string; to?: string }) => !range.from || !range.to || range.from <= range.to;

export const ZPayoutStatusSchema = z.enum(['draft', 'paid']);
export type TPayoutStatus = z.infer<typeof ZPayoutStatusSchema>;

/** Why a payout cannot be marked paid yet (issue 30 point 6): the web says it before it is tried. */
export const PAYOUT_ACCOUNT_MISSING_MESSAGE =
  'Gruppen saknar utbetalningsuppgifter. Lägg in mottagarkonto och kontohavare på gruppens sida innan avräkningen markeras som betald.';

/**
 * The account a payout goes to (issue 30 point 6): the one it was paid to once it is paid, the
 * group's current one before; null while the group has none (and for payouts paid before accounts
 * were kept).
 */
export const ZReceivingAccountSchema = z.object({ display: z.string(), holder_name: z.string() });
export type TReceivingAccount = z.infer<typeof ZReceivingAccountSchema>;

/** One payout (avräkning), spec §3, plus when it was paid and what was sold in it. */
export const ZPayoutSchema = z.object({
  id: z.number(),
  group_id: z.number(),
  group_name: z.string(),
  /** Inclusive calendar dates in Europe/Stockholm, `YYYY-MM-DD`. */
  period_from: z.string(),
  period_to: z.string(),
  orders_count: z.number(),
  lines_count: z.number(),
  total_sales: ZSekSchema,
  /** The settled lines' commission, exact to the öre. */
  total_commission: ZSekSchema,
  /** Öresavrundning: what brings total_commission to amount_to_pay (at most ±0.50). */
  rounding: ZSekSchema,
  /** Att betala: the amount in whole kronor that is paid out (negative: owed back). The web shows this. */
  amount_to_pay: ZSekSchema,
  status: ZPayoutStatusSchema,
  /** ISO 8601 instants. */
  created_at: z.string(),
  paid_at: z.string().nullable(),
  receiving_account: ZReceivingAccountSchema.nullable(),
});
export type TPayout = z.infer<typeof ZPayoutSchema>;

/**
 * Filters of the payouts list. Spec §4: the web sends 'open' when it filters on draft.
 * `from`/`to` keep the payouts whose period overlaps [from, to].
 */
export const ZPayoutListQuerySchema = z
  .object({
    status: z.preprocess(emptyAsMissing, z.enum(['all', 'draft', 'open', 'paid'], { error: 'Ogiltig status' }).default('all')),
    group_id: z.preprocess(emptyAsMissing, ZIdParamSchema.optional()),
    from: ZOptionalDateSchema,
    to: ZOptionalDateSchema,
  })
  .refine(fromNotAfterTo, { message: PAYOUT_DATE_RANGE_MESSAGE, path: ['to'] });
export type TPayoutListQuery = z.infer<typeof ZPayoutListQuerySchema>;

export const ZPayoutListResponseSchema = z.array(ZPayoutSchema);
export type TPayoutListResponse = z.infer<typeof ZPayoutListResponseSchema>;

export const ZCreatePayoutRequestSchema = z
  .object({
    group_id: z.preprocess(emptyAsMissing, idSchema('Ogiltig grupp', PAYOUT_FIELDS_REQUIRED_MESSAGE)),
    from: ZRequiredDateSchema,
    to: ZRequiredDateSchema,
    /** Spec §9: auto-archive is on unless turned off. */
    auto_archive: z.boolean({ error: 'Ogiltigt val för arkivering' }).default(true),
  })
  .refine(fromNotAfterTo, { message: PAYOUT_DATE_RANGE_MESSAGE, path: ['to'] });
export type TCreatePayoutRequest = z.input<typeof ZCreatePayoutRequestSchema>;

/** Why nothing was created: no lines booked in the period at all, or every one already settled. */
export const ZPayoutNotCreatedReasonSchema = z.enum(['no_orders_in_range', 'no_items_unpaid']);
export type TPayoutNotCreatedReason = z.infer<typeof ZPayoutNotCreatedReasonSchema>;

/**
 * Spec §3 create payout result. `ok` is true whenever the request was valid, also when there
 * was nothing to settle (`created: false`, `id: null`, `raw.reason` says why).
 * `amount` is what the payout pays, 'Att betala' in whole kronor (its commission after
 * öresavrundning, as the list and the PDF show it). `auto_archived` is true when this request archived the group.
 */
export const ZCreatePayoutResponseSchema = z.object({
  ok: z.literal(true),
  created: z.boolean(),
  id: z.number().nullable(),
  amount: ZSekSchema,
  auto_archived: z.boolean(),
  raw: z.object({ reason: ZPayoutNotCreatedReasonSchema.nullable() }),
});
export type TCreatePayoutResponse = z.infer<typeof ZCreatePayoutResponseSchema>;

/** Spec §4: draft -> paid is the only transition. */
export const ZUpdatePayoutRequestSchema = z.object({
  status: z.literal('paid', { error: "Status kan bara ändras till 'paid'" }),
});
export type TUpdatePayoutRequest = z.infer<typeof ZUpdatePayoutRequestSchema>;

export const ZUpdatePayoutResponseSchema = ZPayoutSchema;
export type TUpdatePayoutResponse = z.infer<typeof ZUpdatePayoutResponseSchema>;

export const ZPayoutParamsSchema = z.object({ id: ZIdParamSchema });
export type TPayoutParams = z.infer<typeof ZPayoutParamsSchema>;

/**
 * 'Att reglera' (issue 19): per group, the commission no payout has settled yet that will not
 * settle itself. Refunds and cancellations of lines a payout already settled (owed back, negative),
 * and every unsettled line of an archived group, which may never get another payout. Settled by a
 * payout for the group over the period `period_from`–`period_to`.
 */
export const ZOutstandingPayoutSchema = z.object({
  group_id: z.number(),
  group_name: z.string(),
  archived: z.boolean(),
  lines_count: z.number(),
  /** The Stockholm days the lines are booked on: a payout over this period settles them. */
  period_from: z.string(),
  period_to: z.string(),
  /** Exact to the öre; negative when the group owes commission back. */
  total_commission: ZSekSchema,
  rounding: ZSekSchema,
  /** In whole kronor, by the payouts' öresavrundning: what a payout of it would show. */
  amount_to_pay: ZSekSchema,
  /** The group's campaign, once it has ended (issue 31): the row is its payout proposal. */
  ended_campaign: z.object({ starts_on: z.string(), ends_on: z.string() }).nullable(),
});
export type TOutstandingPayout = z.infer<typeof ZOutstandingPayoutSchema>;

export const ZOutstandingPayoutsResponseSchema = z.array(ZOutstandingPayoutSchema);
export type TOutstandingPayoutsResponse = z.infer<typeof ZOutstandingPayoutsResponseSchema>;
