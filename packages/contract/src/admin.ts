import { z } from 'zod';
import {
  ZDateSchema,
  ZEmailSchema,
  ZIdParamSchema,
  ZPhoneSchema,
  ZSekSchema,
  ZSingleLineTextSchema,
  NAME_TOO_LONG,
  integerFromText,
  personName,
} from './common.js';
import { TEXT_LIMITS } from './field-limits.js';
import { ZMembershipRoleSchema } from './account.js';
import { ZShopifyIdSchema } from './orders.js';
import { ZGroupGoalSchema } from './goals.js';
import { withoutWebAddress } from './web-address.js';

// Spec §5 wording, shared by the server's answers and the web's own form checks.
export const GROUP_NAME_REQUIRED_MESSAGE = 'Gruppnamn krävs';
const GROUP_NAME_TOO_LONG = `Gruppnamnet får vara högst ${TEXT_LIMITS.groupName} tecken`;
export const GROUP_ADMIN_REQUIRED_MESSAGE = 'Admin-uppgifter krävs';
export const ADMIN_NAME_REQUIRED_MESSAGE = 'Namn krävs för administratörer';
export const NEW_USER_NAME_REQUIRED_MESSAGE = 'Namn krävs för nya användare';
export const DATE_RANGE_MESSAGE = 'Från-datum kan inte vara efter Till-datum.';
/** Spec §5: the create-group form hints at six characters for the administrator's password. */
export const GROUP_ADMIN_PASSWORD_MIN_LENGTH = 6;

export const ADMIN_PAGE_SIZE_DEFAULT = 50;
export const ADMIN_PAGE_SIZE_MAX = 500;

/** HTML forms and query builders send an empty field as ''; it means "not given". */
const emptyAsMissing = (value: unknown) => (value === '' || value === null ? undefined : value);

const ZOptionalDateQuerySchema = z.preprocess(emptyAsMissing, ZDateSchema.optional());
const ZOptionalIdQuerySchema = z.preprocess(emptyAsMissing, ZIdParamSchema.optional());

const fromNotAfterTo = (range: { from?: string; to?: string }) => !range.from || !range.to || range.from <= range.to;

/** Lists that can run into thousands are paged on the server; `total` is always exact. */
const pageQuery = {
  limit: z.preprocess(
    (value) => integerFromText(emptyAsMissing(value)),
    z
      .number({ error: 'Ogiltigt antal per sida' })
      .int('Ogiltigt antal per sida')
      .min(1, 'Ogiltigt antal per sida')
      .max(ADMIN_PAGE_SIZE_MAX, `Högst ${ADMIN_PAGE_SIZE_MAX} per sida`)
      .default(ADMIN_PAGE_SIZE_DEFAULT),
  ),
  offset: z.preprocess(
    (value) => integerFromText(emptyAsMissing(value)),
    z
      .number({ error: 'Ogiltig startposition' })
      .int('Ogiltig startposition')
      .min(0, 'Ogiltig startposition')
      .max(10_000_000, 'Ogiltig startposition')
      .default(0),
  ),
};
const pageAnswer = { total: z.number().int(), limit: z.number().int(), offset: z.number().int() };

/** Spec §9: all, active or archived groups. */
export const ZGroupStatusFilterSchema = z.enum(['all', 'active', 'archived'], { error: 'Ogiltig status' });
export type TGroupStatusFilter = z.infer<typeof ZGroupStatusFilterSchema>;

// ---------------------------------------------------------------- overview

/** Optional period on `ordered_at` (inclusive Stockholm days); counts of groups and sellers ignore it. */
export const ZAdminOverviewQuerySchema = z
  .object({ from: ZOptionalDateQuerySchema, to: ZOptionalDateQuerySchema })
  .refine(fromNotAfterTo, { message: DATE_RANGE_MESSAGE, path: ['to'] });
export type TAdminOverviewQuery = z.infer<typeof ZAdminOverviewQuerySchema>;

/** Spec §3 admin overview. `sellers_total` counts memberships, admins included; sums cover orders attributed to a group. */
export const ZAdminOverviewResponseSchema = z.object({
  active_groups: z.number().int(),
  archived_groups: z.number().int(),
  sellers_total: z.number().int(),
  total_sales: ZSekSchema,
  total_commission: ZSekSchema,
  orders_count: z.number().int(),
  /** Orders no personal link code matched (all time, whatever the period): they wait for a superadmin to assign them. */
  unattributed_orders: z.number().int(),
});
export type TAdminOverviewResponse = z.infer<typeof ZAdminOverviewResponseSchema>;

// ---------------------------------------------------------------- groups

/** Spec §3 Group, as listed. `created_at` is an ISO 8601 instant; sums are all-time, in SEK. */
export const ZAdminGroupSchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  archived: z.boolean(),
  created_at: z.string(),
  sellers_count: z.number().int(),
  total_sales: ZSekSchema,
  total_commission: ZSekSchema,
  /** The class goal (issue 20), null without one: the list and the detail show progress towards it. */
  goal: ZGroupGoalSchema.nullable(),
});
export type TAdminGroup = z.infer<typeof ZAdminGroupSchema>;

/** `q` searches name and code (case-insensitive, anywhere in the text). Newest first. */
export const ZAdminGroupListQuerySchema = z.object({
  status: z.preprocess(emptyAsMissing, ZGroupStatusFilterSchema.default('all')),
  q: z.preprocess(
    emptyAsMissing,
    z.string().trim().max(TEXT_LIMITS.search, `Söktexten får vara högst ${TEXT_LIMITS.search} tecken`).optional(),
  ),
  ...pageQuery,
});
export type TAdminGroupListQuery = z.infer<typeof ZAdminGroupListQuerySchema>;

export const ZAdminGroupListResponseSchema = z.object({ items: z.array(ZAdminGroupSchema), ...pageAnswer });
export type TAdminGroupListResponse = z.infer<typeof ZAdminGroupListResponseSchema>;

/**
 * Every group, for the pickers that choose one (`GET /api/admin/groups/options`): id, name and
 * state only, archived groups included, in Swedish alphabetical order (Å, Ä, Ö after Z; digits
 * by value, so "Klass 9A" comes before "Klass 10A"). Thousands of groups are a few dozen kB.
 */
export const ZAdminGroupOptionSchema = z.object({ id: z.number(), name: z.string(), archived: z.boolean() });
export type TAdminGroupOption = z.infer<typeof ZAdminGroupOptionSchema>;

export const ZAdminGroupOptionsResponseSchema = z.object({ items: z.array(ZAdminGroupOptionSchema) });
export type TAdminGroupOptionsResponse = z.infer<typeof ZAdminGroupOptionsResponseSchema>;

export const ZAdminGroupParamsSchema = z.object({ id: ZIdParamSchema });
export type TAdminGroupParams = z.infer<typeof ZAdminGroupParamsSchema>;

/** A group without figures: `GET /api/admin/groups/{id}` and every change to a group answer this. */
export const ZAdminGroupRecordSchema = z.object({
  id: z.number(),
  name: z.string(),
  group_code: z.string(),
  archived: z.boolean(),
  created_at: z.string(),
});
export type TAdminGroupRecord = z.infer<typeof ZAdminGroupRecordSchema>;

export const ZAdminGroupRecordResponseSchema = z.object({ group: ZAdminGroupRecordSchema });
export type TAdminGroupRecordResponse = z.infer<typeof ZAdminGroupRecordResponseSchema>;

const ZGroupNameSchema = withoutWebAddress(
  ZSingleLineTextSchema(GROUP_NAME_REQUIRED_MESSAGE).min(1, GROUP_NAME_REQUIRED_MESSAGE).max(TEXT_LIMITS.groupName, GROUP_NAME_TOO_LONG),
);

/** Every field of the optional administrator is required once the administrator is given (spec §5). */
const adminField = () => z.string({ error: GROUP_ADMIN_REQUIRED_MESSAGE });
const adminName = () => ZSingleLineTextSchema(GROUP_ADMIN_REQUIRED_MESSAGE);
export const ZCreateGroupAdminSchema = z.object(
  {
    email: adminField().trim().min(1, GROUP_ADMIN_REQUIRED_MESSAGE).pipe(ZEmailSchema),
    password: adminField()
      .min(1, GROUP_ADMIN_REQUIRED_MESSAGE)
      .min(GROUP_ADMIN_PASSWORD_MIN_LENGTH, `Lösenordet måste vara minst ${GROUP_ADMIN_PASSWORD_MIN_LENGTH} tecken`)
      .max(TEXT_LIMITS.password, `Lösenordet får vara högst ${TEXT_LIMITS.password} tecken`),
    full_name: personName(adminName().min(1, GROUP_ADMIN_REQUIRED_MESSAGE).max(TEXT_LIMITS.name, NAME_TOO_LONG)),
    phone: z.preprocess(emptyAsMissing, ZPhoneSchema.optional()),
  },
  { error: GROUP_ADMIN_REQUIRED_MESSAGE },
);

/**
 * Spec §3 create group payload. With `admin`, an existing account (by e-mail) becomes the group's
 * administrator and keeps its own password and name; an unknown address gets a new account.
 */
export const ZCreateGroupRequestSchema = z.object({
  group_name: ZGroupNameSchema,
  admin: ZCreateGroupAdminSchema.nullish(),
});
export type TCreateGroupRequest = z.input<typeof ZCreateGroupRequestSchema>;

export const ZCreateGroupResponseSchema = z.object({
  group: z.object({ id: z.number(), name: z.string(), group_code: z.string() }),
  admin: z.object({ user_id: z.number(), email: z.string(), is_new_user: z.boolean() }).nullable(),
});
export type TCreateGroupResponse = z.infer<typeof ZCreateGroupResponseSchema>;

export const ZArchiveGroupRequestSchema = z.object({
  archived: z.boolean({ error: 'Ange om gruppen ska arkiveras (archived: true eller false)' }),
});
export type TArchiveGroupRequest = z.infer<typeof ZArchiveGroupRequestSchema>;

/** Spec §5: the new name is trimmed; an empty or unchanged name changes nothing. */
const ZRenameSchema = withoutWebAddress(ZSingleLineTextSchema(GROUP_NAME_REQUIRED_MESSAGE).max(TEXT_LIMITS.groupName, GROUP_NAME_TOO_LONG));

export const ZRenameGroupRequestSchema = z.object({ name: ZRenameSchema });
export type TRenameGroupRequest = z.infer<typeof ZRenameGroupRequestSchema>;

/** The PATCH fallback of archive and rename (spec §7): either field, or both. */
export const ZUpdateGroupRequestSchema = z
  .object({
    archived: ZArchiveGroupRequestSchema.shape.archived.optional(),
    name: ZRenameSchema.optional(),
  })
  .refine((body) => body.archived !== undefined || body.name !== undefined, 'Ange vad som ska ändras: name eller archived');
export type TUpdateGroupRequest = z.infer<typeof ZUpdateGroupRequestSchema>;

/** `changed` is false when the request asked for what already held (nothing written, no audit entry). */
export const ZGroupChangeResponseSchema = z.object({ group: ZAdminGroupRecordSchema, changed: z.boolean() });
export type TGroupChangeResponse = z.infer<typeof ZGroupChangeResponseSchema>;

// ---------------------------------------------------------------- sellers

/**
 * Spec §3 seller row: one membership with its all-time (or filtered) figures. `is_active` says
 * whether the membership's group is active (not archived); `is_admin` mirrors `role`.
 */
export const ZAdminSellerRowSchema = z.object({
  user_id: z.number(),
  full_name: z.string(),
  email: z.string(),
  group_id: z.number(),
  group_name: z.string(),
  orders_count: z.number().int(),
  total_sales: ZSekSchema,
  total_commission: ZSekSchema,
  role: ZMembershipRoleSchema,
  is_admin: z.boolean(),
  is_active: z.boolean(),
});
export type TAdminSellerRow = z.infer<typeof ZAdminSellerRowSchema>;

/** One page of the group's people: a group can have hundreds. */
export const ZAdminGroupDetailQuerySchema = z.object({ ...pageQuery });
export type TAdminGroupDetailQuery = z.infer<typeof ZAdminGroupDetailQuerySchema>;

/**
 * Spec §3 group detail: `totals` cover the whole group; `sellers` is one page of its people by
 * total sales, highest first, and `sellers_page.total` the exact number of people.
 */
export const ZAdminGroupDetailResponseSchema = z.object({
  group: ZAdminGroupSchema,
  totals: z.object({
    total_sales: ZSekSchema,
    total_commission: ZSekSchema,
    orders_count: z.number().int(),
    sellers_count: z.number().int(),
  }),
  sellers: z.array(ZAdminSellerRowSchema),
  sellers_page: z.object(pageAnswer),
});
export type TAdminGroupDetailResponse = z.infer<typeof ZAdminGroupDetailResponseSchema>;

export const ZSellerSortSchema = z.enum(['total_sales', 'total_commission', 'orders_count'], { error: 'Ogiltig sortering' });
export type TSellerSort = z.infer<typeof ZSellerSortSchema>;

/**
 * All sellers (spec §2). `from`/`to` limit the figures to orders placed on those Stockholm days
 * (inclusive), not the rows: every membership is listed. `status` filters on the group's state,
 * `group_id` on one group. Highest first by `sort`, then by name.
 */
export const ZAdminSellerListQuerySchema = z
  .object({
    from: ZOptionalDateQuerySchema,
    to: ZOptionalDateQuerySchema,
    group_id: ZOptionalIdQuerySchema,
    status: z.preprocess(emptyAsMissing, ZGroupStatusFilterSchema.default('all')),
    sort: z.preprocess(emptyAsMissing, ZSellerSortSchema.default('total_sales')),
    ...pageQuery,
  })
  .refine(fromNotAfterTo, { message: DATE_RANGE_MESSAGE, path: ['to'] });
export type TAdminSellerListQuery = z.infer<typeof ZAdminSellerListQuerySchema>;

export const ZAdminSellerListResponseSchema = z.object({ items: z.array(ZAdminSellerRowSchema), ...pageAnswer });
export type TAdminSellerListResponse = z.infer<typeof ZAdminSellerListResponseSchema>;

export const ZAdminSellerParamsSchema = z.object({ userId: ZIdParamSchema });
export type TAdminSellerParams = z.infer<typeof ZAdminSellerParamsSchema>;

/** One seller's orders, in one group (`group_id`) or across all the seller's groups; newest first. */
export const ZAdminSellerOrdersQuerySchema = z
  .object({
    group_id: ZOptionalIdQuerySchema,
    from: ZOptionalDateQuerySchema,
    to: ZOptionalDateQuerySchema,
    ...pageQuery,
  })
  .refine(fromNotAfterTo, { message: DATE_RANGE_MESSAGE, path: ['to'] });
export type TAdminSellerOrdersQuery = z.infer<typeof ZAdminSellerOrdersQuerySchema>;

/** Spec §3 seller order. Instants are ISO 8601; `state` is Shopify's financial status (paid, refunded, cancelled…). */
export const ZAdminSellerOrderSchema = z.object({
  order_id: z.number(),
  shopify_order_id: ZShopifyIdSchema,
  order_name: z.string().nullable(),
  ordered_at: z.string(),
  created_at: z.string(),
  subtotal_incl_vat: ZSekSchema,
  commission_total: ZSekSchema,
  state: z.string(),
  group_id: z.number(),
});
export type TAdminSellerOrder = z.infer<typeof ZAdminSellerOrderSchema>;

/**
 * The seller summary over every order that matches the query (not only the page). `role`,
 * `group_id` and `group_name` are null when no `group_id` was asked for.
 */
export const ZAdminSellerSummarySchema = z.object({
  user_id: z.number(),
  full_name: z.string(),
  email: z.string(),
  role: ZMembershipRoleSchema.nullable(),
  is_admin: z.boolean(),
  group_id: z.number().nullable(),
  group_name: z.string().nullable(),
  orders_count: z.number().int(),
  total_sales: ZSekSchema,
  total_commission: ZSekSchema,
});
export type TAdminSellerSummary = z.infer<typeof ZAdminSellerSummarySchema>;

export const ZAdminSellerOrdersResponseSchema = z.object({
  seller: ZAdminSellerSummarySchema,
  items: z.array(ZAdminSellerOrderSchema),
  ...pageAnswer,
});
export type TAdminSellerOrdersResponse = z.infer<typeof ZAdminSellerOrdersResponseSchema>;

/**
 * Everyone in one group (`GET /api/admin/groups/{id}/members`), for choosing a person: one row per
 * membership, in Swedish alphabetical order of name.
 */
export const ZAdminGroupMemberSchema = z.object({
  membership_id: z.number(),
  user_id: z.number(),
  full_name: z.string(),
  email: z.string(),
  role: ZMembershipRoleSchema,
});
export type TAdminGroupMember = z.infer<typeof ZAdminGroupMemberSchema>;

export const ZAdminGroupMembersResponseSchema = z.object({ items: z.array(ZAdminGroupMemberSchema) });
export type TAdminGroupMembersResponse = z.infer<typeof ZAdminGroupMembersResponseSchema>;

// ---------------------------------------------------------------- adding users

/**
 * Spec §3 add user payload. Spec §5: the name is required for an administrator, and for anyone
 * who has no account yet (the server knows that only after looking the address up).
 */
export const ZAddGroupUserRequestSchema = z
  .object({
    email: ZEmailSchema,
    role: z.preprocess(emptyAsMissing, z.enum(ZMembershipRoleSchema.options, { error: 'Ogiltig roll' }).default('seller')),
    full_name: z.preprocess(emptyAsMissing, personName(ZSingleLineTextSchema().max(TEXT_LIMITS.name, NAME_TOO_LONG)).optional()),
    phone: z.preprocess(emptyAsMissing, ZPhoneSchema.optional()),
  })
  .refine((body) => body.role !== 'admin' || !!body.full_name, { message: ADMIN_NAME_REQUIRED_MESSAGE, path: ['full_name'] });
export type TAddGroupUserRequest = z.input<typeof ZAddGroupUserRequestSchema>;

/** `is_new_user`: an account was created (and mailed a welcome with the way to choose a password). */
export const ZAddGroupUserResponseSchema = z.object({
  user: z.object({ id: z.number(), email: z.string(), role: ZMembershipRoleSchema, is_new_user: z.boolean() }),
});
export type TAddGroupUserResponse = z.infer<typeof ZAddGroupUserResponseSchema>;
