/**
 * The whole domain of DESIGN §3. Money is integer öre (bigint, read as JS number:
 * öre sums stay far below 2^53). Timestamps are timestamptz; payout periods are
 * calendar dates in Europe/Stockholm.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ore = (name: string) => bigint(name, { mode: 'number' });

/**
 * A Shopify id (order, line, product): a bigint column read and written as a decimal string.
 * Shopify's ids are 64-bit, and as a JS number 820982911946154508 and 820982911946154509 are one
 * number; node-postgres hands int8 over as a string, PGlite as a BigInt, and both stay exact here.
 */
const shopifyId = customType<{ data: string; driverData: string | bigint }>({
  dataType: () => 'bigint',
  fromDriver: (value) => String(value),
});
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const membershipRole = pgEnum('membership_role', ['seller', 'admin']);
export const payoutStatus = pgEnum('payout_status', ['draft', 'paid']);
/** `transfer`: a sale moved from one pupil to another after a payout settled it, taken from one and given to the other (decision 067). */
export const orderLineKind = pgEnum('order_line_kind', ['sale', 'refund', 'cancellation', 'transfer']);
/** How a group's leaderboard shows its pupils (issue 20): names and amounts, who has started, or only one's own. */
export const leaderboardMode = pgEnum('leaderboard_mode', ['full', 'participation', 'own_only']);
/** How a pupil is named where a buyer can see it (catalogue, share texts, link pages). */
export const publicNameChoice = pgEnum('public_name_choice', ['first_name', 'full_name', 'alias']);
/** A child under 13 needs a guardian's consent (lag 2018:218, 2 kap. 4 §); null when none is needed. */
export const guardianConsent = pgEnum('guardian_consent', ['pending', 'approved']);

/** A session ended before its access tokens expire: the refresh family id, and when its last token expires. */
export interface EndedSession {
  sid: string;
  until: string;
}

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Null for a pupil added from a class list (issue 31), who signs in with `username` instead. */
    email: text('email'),
    /**
     * A class-list pupil's sign-in name ('alva.ob', 'alva.ob2'; modules/group-members/make-username.ts),
     * unique across the portal whatever its case; null for everyone who signs in with an address.
     */
    username: text('username'),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name').notNull(),
    phone: text('phone'),
    isSuperadmin: boolean('is_superadmin').notNull().default(false),
    activeGroupId: integer('active_group_id').references(() => groups.id, { onDelete: 'set null' }),
    /**
     * Bumped to invalidate every access token of the user at once (a password reset, a password
     * or e-mail change; the current session then gets a fresh token).
     */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * Sessions (refresh families) ended by logout or reuse while access tokens of theirs may still
     * be unexpired: read with the user row on every request, so ending one session costs no query
     * of its own (decision 013). Entries are dropped once `until` has passed.
     */
    endedSessions: jsonb('ended_sessions').$type<EndedSession[]>().notNull().default([]),
    /** Said at registration: the seller is under 13, so a guardian consents and receives their mail. */
    isUnder13: boolean('is_under_13').notNull().default(false),
    /** 'pending' until a guardian approves an under-13 seller; null for everyone who needs no consent. */
    guardianConsent: guardianConsent('guardian_consent'),
    /** How buyers see the pupil's name; first name by default (privacy by design). */
    publicName: publicNameChoice('public_name').notNull().default('first_name'),
    /** The name shown to buyers when `publicName` is 'alias', and everywhere outside the admin area for a protected pupil. */
    alias: text('alias'),
    /** Opt-in: 'Mejla mig när jag säljer' (to the guardian for a pupil under 13). */
    saleMail: boolean('sale_mail').notNull().default(false),
    /** Opt-in for group admins: the weekly summary of their groups. */
    weeklySummary: boolean('weekly_summary').notNull().default(false),
    /** For retention: accounts in archived groups with no sign-in for 24 months are erased. */
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /**
     * Set when the account was erased: the row stays as a tombstone named 'Borttagen säljare' so
     * that orders, payouts and group totals keep their bookkeeping, with every personal field blanked.
     */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    check('users_email_or_username', sql`${t.email} is not null or ${t.username} is not null`),
  ],
);

export const groups = pgTable(
  'groups',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    code: text('code').notNull(),
    /**
     * The class link `/k/{class_link_code}` for buyers who support the whole class (issue 32). Not
     * the group code: that one lets anyone who has it join the class as a seller (decision 073).
     * Drawn by the database (migration 0023), so every way a group is made gets one.
     */
    classLinkCode: text('class_link_code')
      .notNull()
      .default(sql`random_class_link_code()`),
    /**
     * A short text the teacher writes for the buyers, shown on the buyer pages (issue 32); null for
     * none. The column is the class's greeting: a column named for a buyer is what the privacy test
     * refuses, since nothing about a buyer is kept.
     */
    buyerGreeting: text('class_greeting'),
    archived: boolean('archived').notNull().default(false),
    leaderboardVisible: boolean('leaderboard_visible').notNull().default(true),
    leaderboardMode: leaderboardMode('leaderboard_mode').notNull().default('full'),
    /** The class goal (issue 20): all three set together, or none. */
    goalOre: ore('goal_ore'),
    goalPurpose: text('goal_purpose'),
    goalEndsOn: date('goal_ends_on', { mode: 'string' }),
    /**
     * The campaign (issue 31): the days, in Stockholm, on which a personal link leads to the shop.
     * Both set or neither; no campaign means the links are always open, as before issue 31.
     */
    campaignStartsOn: date('campaign_starts_on', { mode: 'string' }),
    campaignEndsOn: date('campaign_ends_on', { mode: 'string' }),
    /** When the close-out (summary mails, the payout proposal) claimed this campaign: once, by one process. */
    campaignClosedAt: timestamp('campaign_closed_at', { withTimezone: true }),
    /**
     * What the money became, written by the teacher after the end (issue 31 point 5). A 'message'
     * in the database: a column named for a note is what the privacy test refuses, since Shopify's
     * order note is a buyer's words and none is kept.
     */
    closingNote: text('closing_message'),
    closingNoteAt: timestamp('closing_message_at', { withTimezone: true }),
    /** The group this one continues (next term's clone, issue 31 point 6). */
    clonedFromGroupId: integer('cloned_from_group_id').references((): AnyPgColumn => groups.id, { onDelete: 'set null' }),
    /** Set when the group was cloned while commission was still unsettled: archived once its payout is paid. */
    archiveWhenSettled: boolean('archive_when_settled').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check('groups_campaign_both', sql`(${t.campaignStartsOn} is null) = (${t.campaignEndsOn} is null)`),
    check('groups_campaign_order', sql`${t.campaignEndsOn} >= ${t.campaignStartsOn}`),
    // The close-out finds campaigns that have ended and not been closed out without reading every group.
    index('groups_campaign_open_idx')
      .on(t.campaignEndsOn)
      .where(sql`${t.campaignClosedAt} is null and ${t.campaignEndsOn} is not null`),
    uniqueIndex('groups_code_idx').on(t.code),
    uniqueIndex('groups_class_link_code_idx').on(t.classLinkCode),
    index('groups_archived_idx').on(t.archived),
    // The admin's group list, newest first: a page is read from here instead of sorting every group.
    index('groups_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const payoutAccountKind = pgEnum('payout_account_kind', ['bankgiro', 'plusgiro', 'bank']);

/**
 * Where a group's commission is paid (issue 30 point 6), one row per group, set by the superadmin.
 * Numbers are stored as digits, checked by the contract's `checkPayoutAccount` before they are
 * written; a clearing number belongs to a bank account and to nothing else.
 */
export const groupPayoutAccounts = pgTable(
  'group_payout_accounts',
  {
    groupId: integer('group_id')
      .primaryKey()
      .references(() => groups.id, { onDelete: 'cascade' }),
    kind: payoutAccountKind('kind').notNull(),
    clearingNumber: text('clearing_number'),
    accountNumber: text('account_number').notNull(),
    holderName: text('holder_name').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('group_payout_accounts_clearing', sql`(${t.kind} = 'bank') = (${t.clearingNumber} is not null)`)],
);

export const memberships = pgTable(
  'memberships',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    role: membershipRole('role').notNull().default('seller'),
    /** The personal link code: `{PUBLIC_URL}/s/{linkCode}`, unique across the system. */
    linkCode: text('link_code').notNull(),
    /** Skyddade personuppgifter, marked by a group admin: only the alias outside the admin area, on no leaderboard. */
    protectedIdentity: boolean('protected_identity').notNull().default(false),
    /** The pupil's own goal, opt-in, private to the pupil and their guardians. */
    personalGoalOre: ore('personal_goal_ore'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('memberships_user_group_idx').on(t.userId, t.groupId),
    uniqueIndex('memberships_link_code_idx').on(t.linkCode),
    index('memberships_group_idx').on(t.groupId),
  ],
);

export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    shopifyProductId: shopifyId('shopify_product_id'),
    sku: text('sku'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    priceOre: ore('price_ore').notNull(),
    imageUrl: text('image_url'),
    /** Commission in basis points (2500 = 25 %); null takes DEFAULT_COMMISSION_BPS. */
    commissionBps: integer('commission_bps'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Shopify's updated_at of the data stored: a late products/update never overwrites a newer one. */
    shopifyUpdatedAt: timestamp('shopify_updated_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('products_shopify_id_idx').on(t.shopifyProductId),
    index('products_sku_idx').on(t.sku),
    check('products_commission_bps_range', sql`${t.commissionBps} between 0 and 10000`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    shopifyOrderId: shopifyId('shopify_order_id').notNull(),
    orderName: text('order_name'),
    orderedAt: timestamp('ordered_at', { withTimezone: true }).notNull(),
    /** Shopify's updated_at of the data stored: an older delivery never overwrites a newer one. */
    shopifyUpdatedAt: timestamp('shopify_updated_at', { withTimezone: true }),
    /**
     * The pupil whose personal link the order came through. Null with a group: through the class
     * link (issue 32), the class's and no pupil's. Null with no group: unattributed (no known code).
     */
    membershipId: integer('membership_id').references(() => memberships.id, { onDelete: 'set null' }),
    groupId: integer('group_id').references(() => groups.id, { onDelete: 'set null' }),
    refCode: text('ref_code'),
    subtotalOre: ore('subtotal_ore').notNull(),
    commissionOre: ore('commission_ore').notNull(),
    /** paid, pending, cancelled, refunded, partially_refunded … as Shopify's financial status. */
    state: text('state').notNull(),
    currency: text('currency').notNull().default('SEK'),
    /**
     * The webhook event whose payload is the data stored: Shopify's order as it came, kept once,
     * in webhook_events. No foreign key: events are an append-only log that a retention rule may
     * thin out without touching orders.
     */
    sourceEventId: bigint('source_event_id', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_shopify_order_id_idx').on(t.shopifyOrderId),
    index('orders_membership_ordered_idx').on(t.membershipId, t.orderedAt),
    index('orders_group_ordered_idx').on(t.groupId, t.orderedAt),
    // Unattributed is no group: an order through a class link has a group and no pupil (issue 32).
    index('orders_unattributed_idx')
      .on(t.orderedAt)
      .where(sql`${t.groupId} is null`),
  ],
);

export const payouts = pgTable(
  'payouts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    ordersCount: integer('orders_count').notNull(),
    linesCount: integer('lines_count').notNull(),
    salesOre: ore('sales_ore').notNull(),
    commissionOre: ore('commission_ore').notNull(),
    status: payoutStatus('status').notNull().default('draft'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidBy: integer('paid_by').references(() => users.id, { onDelete: 'set null' }),
    /** The account the payout was paid to, written out, and its holder: kept as they were when it was marked paid. */
    paidToAccount: text('paid_to_account'),
    paidToHolder: text('paid_to_holder'),
  },
  (t) => [
    index('payouts_group_idx').on(t.groupId, t.createdAt),
    index('payouts_status_idx').on(t.status),
    check('payouts_period_order', sql`${t.periodFrom} <= ${t.periodTo}`),
  ],
);

/**
 * One line per product on an order, plus negative lines for refunds and cancellations.
 * Group, membership and booking time are copied from the order so that dashboards and
 * payouts read one index, and so that a refund booked after a payout lands in the next one.
 */
export const orderLines = pgTable(
  'order_lines',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: orderLineKind('kind').notNull().default('sale'),
    /** Shopify line item id for sales; refund line item id for refunds. Unique per order and kind. */
    shopifyLineId: shopifyId('shopify_line_id'),
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    quantity: integer('quantity').notNull(),
    amountOre: ore('amount_ore').notNull(),
    commissionOre: ore('commission_ore').notNull(),
    groupId: integer('group_id').references(() => groups.id, { onDelete: 'set null' }),
    membershipId: integer('membership_id').references(() => memberships.id, { onDelete: 'set null' }),
    bookedAt: timestamp('booked_at', { withTimezone: true }).notNull(),
    payoutId: integer('payout_id').references(() => payouts.id),
    /** The sale line a refund or cancellation line reverses: what is left of a sale is its own sum. */
    reversesLineId: bigint('reverses_line_id', { mode: 'number' }).references((): AnyPgColumn => orderLines.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_lines_order_idx').on(t.orderId),
    uniqueIndex('order_lines_shopify_line_idx').on(t.orderId, t.kind, t.shopifyLineId),
    index('order_lines_membership_idx').on(t.membershipId, t.bookedAt),
    index('order_lines_unsettled_idx')
      .on(t.groupId, t.bookedAt)
      .where(sql`${t.payoutId} is null`),
    index('order_lines_payout_idx').on(t.payoutId),
    // Without it, deleting any line (an order's cascade) scans every line for a reversal pointing at it.
    index('order_lines_reverses_idx')
      .on(t.reversesLineId)
      .where(sql`${t.reversesLineId} is not null`),
  ],
);

/**
 * Visits through a personal link, counted per link and Stockholm day (issue 22): nothing about the
 * visitor (no address, no browser, no time of day) is ever stored, only how many came that day.
 */
export const linkClicksPerDay = pgTable(
  'link_clicks_per_day',
  {
    membershipId: integer('membership_id')
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    /** The Europe/Stockholm calendar day of the visits. */
    day: date('day', { mode: 'string' }).notNull(),
    clicks: integer('clicks').notNull(),
  },
  (t) => [primaryKey({ columns: [t.membershipId, t.day] }), index('link_clicks_per_day_day_idx').on(t.day)],
);

export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    webhookId: text('webhook_id').notNull(),
    topic: text('topic').notNull(),
    shopDomain: text('shop_domain'),
    /**
     * The body as received, reduced to what the ledger and a replay read (issue 22, decision 035):
     * no buyer's name, address, e-mail, phone or IP is ever stored (modules/shopify/reduce-payload.ts).
     */
    payload: text('payload').notNull(),
    /** False for an event stored before payloads were reduced at receipt: the retention job reduces it. */
    payloadReduced: boolean('payload_reduced').notNull().default(false),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** The order an order or refund event is about: a refund that arrives before its order is applied when the order comes. */
    shopifyOrderId: shopifyId('shopify_order_id'),
    /** What processing did, in Swedish, for the operator (recorded, ignored topic, test order, waiting for its order…). */
    outcome: text('outcome'),
  },
  (t) => [
    uniqueIndex('webhook_events_webhook_id_idx').on(t.webhookId),
    index('webhook_events_unprocessed_idx')
      .on(t.receivedAt)
      .where(sql`${t.processedAt} is null`),
    index('webhook_events_shopify_order_idx')
      .on(t.shopifyOrderId)
      .where(sql`${t.shopifyOrderId} is not null`),
    index('webhook_events_unreduced_idx')
      .on(t.id)
      .where(sql`not ${t.payloadReduced}`),
  ],
);

export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_codes_hash_idx').on(t.codeHash)],
);

/**
 * The one-time code of a printed sign-in slip (issue 31): a class-list pupil without a guardian's
 * address chooses a password with it. Stored hashed, single-use, good for 7 days; printing new
 * slips replaces a pupil's unused code.
 */
export const signInSlipCodes = pgTable(
  'sign_in_slip_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sign_in_slip_codes_hash_idx').on(t.codeHash), index('sign_in_slip_codes_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** All tokens rotated from one sign-in share a family; reuse of a rotated token revokes the family. */
    familyId: text('family_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_entries_created_idx').on(t.createdAt), index('audit_entries_target_idx').on(t.targetType, t.targetId)],
);

/**
 * Abuse-limit counters (login, registration, password reset, webhooks), kept here so that every
 * server process on the database counts the same attempts. One fixed window per limit and key;
 * the key holds no e-mail address, only its hash.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_resets_idx').on(t.resetsAt)],
);

/**
 * Secrets every server process must share, generated once by whichever process starts first
 * (decision 015): `jwt` signs access tokens when JWT_SECRET is unset. In the database, so every
 * process on one PostgreSQL uses the same one, and a backup holds it (a dump is a secret).
 */
/**
 * Mail waiting to be delivered (issue 17): written in the same transaction as the action that
 * causes it, delivered by the mail sender (plugins/mail-outbox.ts) with retries and backoff.
 * Sent rows are deleted after a day, given-up rows after a week (they hold an address).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** The one link the mail is about, logged when it goes to the outbox folder. */
    link: text('link'),
    attempts: integer('attempts').notNull().default(0),
    /** When the sender may next try it; a claimed row is leased until then. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    givenUpAt: timestamp('given_up_at', { withTimezone: true }),
    /** Why the last attempt failed, with every address blanked out. */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.givenUpAt} is null`),
  ],
);

/**
 * A guardian of an under-13 seller: invited by e-mail at registration, linked to the guardian's
 * own account when they approve. The consent code is stored hashed, single-use and expiring, as
 * reset codes are.
 */
export const guardianLinks = pgTable(
  'guardian_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    childUserId: integer('child_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    guardianUserId: integer('guardian_user_id').references(() => users.id, { onDelete: 'cascade' }),
    guardianEmail: text('guardian_email').notNull(),
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    codeUsedAt: timestamp('code_used_at', { withTimezone: true }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('guardian_links_code_idx').on(t.codeHash),
    index('guardian_links_child_idx').on(t.childUserId),
    index('guardian_links_guardian_idx').on(t.guardianUserId),
  ],
);

/**
 * The consent codes of a child's account that was removed (declined, withdrawn, deleted; issue 33):
 * the hash only, so a guardian who opens the mail's link later is told the account is gone rather
 * than that the link does not exist. Nothing here names anyone; kept as long as a code's hash is.
 */
/**
 * The personal link codes of erased pupils, as SHA-256 (issue 32): the buyer page of an old link
 * says the link is no longer used instead of 'not found'. A hash of a random code names nobody.
 */
export const retiredLinkCodes = pgTable('retired_link_codes', {
  codeHash: text('code_hash').primaryKey(),
  retiredAt: timestamp('retired_at', { withTimezone: true }).notNull().defaultNow(),
});

export const removedConsentCodes = pgTable('removed_consent_codes', {
  codeHash: text('code_hash').primaryKey(),
  reason: text('reason', { enum: ['declined', 'withdrawn', 'deleted'] }).notNull(),
  removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per run of a scheduled job and period ('2026-11-26' for a daily job, '2026-11-26T09'
 * for an hourly one): the primary key lets exactly one server process claim a period, however
 * many run (plugins/scheduled-jobs.ts). `summary` is what the run did, also logged.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    period: text('period').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.job, t.period] })],
);

/**
 * Where the sale mail ('Mejla mig när jag säljer') left off, per membership: the membership's
 * sales (`membership_figures.sales_ore`) when its last sale mail was queued, or when the seller
 * opted in. The hourly job mails the difference when it is above zero (modules/notifications,
 * decision 042). No row: the membership started at 0 after the seller opted in.
 */
export const saleMailCursors = pgTable('sale_mail_cursors', {
  membershipId: integer('membership_id')
    .primaryKey()
    .references(() => memberships.id, { onDelete: 'cascade' }),
  mailedSalesOre: ore('mailed_sales_ore').notNull(),
  /** When the last sale mail for it was queued; null when none yet (only the opt-in set the cursor). */
  mailedAt: timestamp('mailed_at', { withTimezone: true }),
});

export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A group's version numbers come from one sequence, so a number is never given out twice: a
 * cache entry keyed on (group, version) can never be mistaken for a newer state, even after the
 * rollups are rebuilt.
 */
export const groupFiguresVersion = pgSequence('group_figures_version_seq');

/**
 * Each membership's figures by the rules every capability shares (modules/figures/order-sums.ts):
 * the sums of its orders and the count of those not cancelled. Kept by triggers on `orders` and
 * `memberships` (migration 0004_figure-rollup-triggers), in the transaction that changes them, so
 * a dashboard or an admin list reads one row per membership instead of every order. Every
 * membership has its row.
 */
export const membershipFigures = pgTable(
  'membership_figures',
  {
    membershipId: integer('membership_id')
      .primaryKey()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    salesOre: ore('sales_ore').notNull().default(0),
    commissionOre: ore('commission_ore').notNull().default(0),
    ordersCount: integer('orders_count').notNull().default(0),
    /** The membership's group, copied by the triggers, so that a group's page is read from the indexes below. */
    groupId: integer('group_id').notNull(),
  },
  // The admin's seller list, highest first by each sort: across all groups, and within one group.
  (t) => [
    index('membership_figures_sales_idx').on(t.salesOre.desc()),
    index('membership_figures_commission_idx').on(t.commissionOre.desc()),
    index('membership_figures_orders_idx').on(t.ordersCount.desc()),
    index('membership_figures_group_sales_idx').on(t.groupId, t.salesOre.desc()),
    index('membership_figures_group_commission_idx').on(t.groupId, t.commissionOre.desc()),
    index('membership_figures_group_orders_idx').on(t.groupId, t.ordersCount.desc()),
  ],
);

/**
 * Each group's figures over the orders attributed to it, and its number of members (admins
 * included), kept by the same triggers. `version` takes a new number from
 * group_figures_version_seq whenever anything the group's leaderboard shows changes: its orders'
 * figures, its members, their names.
 */
export const groupFigures = pgTable('group_figures', {
  groupId: integer('group_id')
    .primaryKey()
    .references(() => groups.id, { onDelete: 'cascade' }),
  salesOre: ore('sales_ore').notNull().default(0),
  commissionOre: ore('commission_ore').notNull().default(0),
  ordersCount: integer('orders_count').notNull().default(0),
  sellersCount: integer('sellers_count').notNull().default(0),
  version: bigint('version', { mode: 'number' })
    .notNull()
    .default(sql`nextval('group_figures_version_seq')`),
});

/**
 * Tickets for the live-figure stream (GET /api/events?ticket=…, modules/live): the access token
 * never goes in a URL, so a signed-in caller first gets a short-lived ticket, used once (deleted
 * as it is taken) by whichever server process the stream reaches. Only the ticket's hash is kept.
 */
export const eventTickets = pgTable(
  'event_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The session of the access token that asked; the stream ends when that session does. */
    sessionId: text('session_id'),
    tokenVersion: integer('token_version').notNull(),
    /** When the access token that asked expires: the stream ends then, and the client asks again. */
    streamEndsAt: timestamp('stream_ends_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('event_tickets_expires_idx').on(t.expiresAt)],
);
