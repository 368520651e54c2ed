/**
 * Issue 8, the permission matrix: every route of the server's own route table, called as a
 * guest, a seller, the admin of the group, the admin of another group and a superadmin, with
 * the outcome each must get. Ids of a group in paths and bodies are tried with the other
 * group's id too. A route without an entry here fails the first test, so a new route cannot
 * ship without someone deciding who may call it.
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TAccountGroupsResponse,
  TGuardianChildrenResponse,
  TGroupTotalsResponse,
  TFullLeaderboard,
  TMeSummaryResponse,
  TProfileResponse,
  TAccountExport,
  TSalesPerDayResponse,
} from '@saljportalen/contract';
import { stockholmToday } from '@saljportalen/contract';
import { addCalendarDays } from '../src/lib/dates.js';
import { signShopifyWebhook } from '../src/modules/shopify/webhook-signature.js';
import { figuresFromOrders, groupIdByCode, insertOrder, membershipOf, sqlRows } from './admin-fixtures.js';
import { registerChildWithGuardian } from './guardian-fixtures.js';
import { startTestServer, type TestServer } from './test-server.js';

const ROLES = ['guest', 'seller', 'groupAdmin', 'otherAdmin', 'superadmin', 'otherGuardian', 'guardian'] as const;
type Role = (typeof ROLES)[number];

/** Who plays each role: the seller and the group admin belong to "the group" (6B), the other admin to the scouts. */
const PEOPLE: Record<Exclude<Role, 'guest'>, string> = {
  seller: 'noah@demo.se',
  groupAdmin: 'larare@bjorkskolan.se',
  otherAdmin: 'ledare@tallen.se',
  superadmin: 'admin@saljportalen.se',
  // Issue 22: the guardian of an under-13 pupil in 6B, and the guardian of another such pupil.
  guardian: 'vardnadshavare@demo.se',
  otherGuardian: 'annan.vardnadshavare@demo.se',
};

/** A running campaign's last day: a month from today. */
const campaignEnd = () => addCalendarDays(stockholmToday(), 30);

type Expected = Record<Role, number>;
const anyone = (status: number): Expected => ({
  guest: status,
  seller: status,
  groupAdmin: status,
  otherAdmin: status,
  superadmin: status,
  guardian: status,
  otherGuardian: status,
});
const signedIn = (status: number, overrides: Partial<Expected> = {}): Expected => ({ ...anyone(status), guest: 401, ...overrides });
const superadminOnly = (status: number): Expected => ({
  guest: 401,
  seller: 403,
  groupAdmin: 403,
  otherAdmin: 403,
  superadmin: status,
  guardian: 403,
  otherGuardian: 403,
});

interface Person {
  userId: number;
  email: string;
  fullName: string;
  activeGroupId: number | null;
  groupIds: number[];
}

interface Context {
  group: number;
  otherGroup: number;
  sellerUserId: number;
  draftPayoutId: number;
  unattributedOrderId: number;
  /** An order of the group's, Noah's, that no payout has taken: moved to Noah, it moves nowhere. */
  classOrderId: number;
  sellerMembershipId: number;
  /** A stored webhook event that has not been processed, for 'Kör igen'. */
  failedWebhookEventId: number;
  linkCode: string;
  /** The group's class link's code (issue 32). */
  classLinkCode: string;
  /** A seller nobody else's probe needs, for the superadmin's erasure. */
  erasableUserId: number;
  /** The guardian's approved child, the other guardian's, and one the guardian may withdraw. */
  childUserId: number;
  otherChildUserId: number;
  withdrawnChildUserId: number;
  people: Record<Exclude<Role, 'guest'>, Person>;
}

interface Probe {
  /** What the probe tries, for the failure message. */
  label?: string;
  path: string;
  body?: (role: Role) => unknown;
  headers?: Record<string, string>;
  expect: Expected;
  /** What an answer that got through may contain: only the caller's own data. */
  check?: (role: Exclude<Role, 'guest'>, body: string) => Promise<void>;
}

const unique = () => crypto.randomBytes(4).toString('hex');

function signedWebhook(topic: string) {
  const body = JSON.stringify({ id: 1, note: 'matris' });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-webhook-id': `matris-${unique()}`,
      'x-shopify-shop-domain': 'saljportalen-test.myshopify.com',
      'x-shopify-hmac-sha256': signShopifyWebhook(body, 'test-webhook-secret'),
    },
  };
}

/**
 * The matrix: for every `METHOD path` of the route table, the requests to try and what each role
 * must get. HEAD of a GET route is tried with the GET entry's probes.
 */
function matrix(c: Context, server: TestServer): Record<string, Probe[]> {
  const ownData = (role: Exclude<Role, 'guest'>) => c.people[role];
  return {
    'GET /api/health': [{ path: '/api/health', expect: anyone(200) }],
    // Not a role's call: without METRICS_TOKEN the metrics answer this machine only (the matrix
    // calls from loopback), whatever bearer token is shown; metrics.api.test.ts tries the token
    // and other addresses.
    'GET /metrics': [
      { label: 'från servern själv', path: '/metrics', expect: anyone(200) },
      { label: 'genom en proxy', path: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' }, expect: anyone(403) },
    ],

    'GET /api/ready': [{ path: '/api/ready', expect: anyone(200) }],
    'GET /api/privacy': [{ path: '/api/privacy', expect: anyone(200) }],
    'GET /s/:code': [
      { label: 'känd kod', path: `/s/${c.linkCode}`, expect: anyone(200) },
      { label: 'okänd kod', path: '/s/FINNSINTE', expect: anyone(404) },
    ],
    'GET /k/:code': [
      { label: 'känd kod', path: `/k/${c.classLinkCode}`, expect: anyone(200) },
      { label: 'gruppkoden, som inte är klasslänkens', path: '/k/BJK6B2', expect: anyone(404) },
    ],

    // Signing in and out: open to all; a bearer token changes nothing.
    'POST /api/auth/login': [
      { path: '/api/auth/login', body: () => ({ email: 'elsa@demo.se', password: 'demo1234' }), expect: anyone(200) },
    ],
    // Sent as the web sends it, without the bearer token: with one, logout ends that token's session
    // (sessions.api.test.ts), and the role's token would be refused for the rest of the matrix.
    'POST /api/auth/logout': [{ path: '/api/auth/logout', headers: { authorization: '' }, expect: anyone(200) }],
    'POST /api/auth/register-seller': [
      {
        path: '/api/auth/register-seller',
        body: (role) => ({
          full_name: 'Matris Elev',
          email: `matris-${role}-${unique()}@demo.se`,
          password: 'hemligt123',
          group_code: 'BJK6B2',
        }),
        expect: anyone(200),
      },
    ],
    // Only the refresh cookie renews a session; an access token is no substitute for it.
    'POST /api/auth/refresh': [{ path: '/api/auth/refresh', expect: anyone(401) }],
    'POST /api/auth/forgot-password': [{ path: '/api/auth/forgot-password', body: () => ({ email: 'elsa@demo.se' }), expect: anyone(200) }],
    'POST /api/auth/reset-password/verify': [
      { path: '/api/auth/reset-password/verify', body: () => ({ code: 'x'.repeat(43) }), expect: anyone(400) },
    ],
    'POST /api/auth/reset-password': [
      { path: '/api/auth/reset-password', body: () => ({ code: 'x'.repeat(43), new_password: 'nytt-losen-123' }), expect: anyone(400) },
    ],
    // A sign-in slip's code (issue 31): anyone may try one; a wrong one is refused alike.
    'POST /api/auth/slip': [
      {
        path: '/api/auth/slip',
        body: () => ({ username: 'ingen.sa', code: 'ABCD-EFGH', new_password: 'nytt-losen-123' }),
        expect: anyone(400),
      },
    ],

    // The account: every signed-in person, always their own.
    'GET /api/account/profile': [
      {
        path: '/api/account/profile',
        expect: signedIn(200),
        check: async (role, body) => {
          const { user } = JSON.parse(body) as TProfileResponse;
          expect(user).toMatchObject({ id: ownData(role).userId, email: ownData(role).email });
        },
      },
    ],
    'POST /api/account/profile': [
      {
        path: '/api/account/profile',
        body: (role) => ({ full_name: role === 'guest' ? 'Gäst' : ownData(role).fullName }),
        expect: signedIn(200),
      },
    ],
    'POST /api/account/change-password': [
      {
        label: 'fel nuvarande lösenord',
        path: '/api/account/change-password',
        body: () => ({ current_password: 'fel-lösenord', new_password: 'nytt-losen-123' }),
        expect: signedIn(400),
      },
    ],
    'POST /api/account/change-email': [
      {
        label: 'fel nuvarande lösenord',
        path: '/api/account/change-email',
        body: () => ({ current_password: 'fel-lösenord', new_email: `matris-${unique()}@demo.se` }),
        expect: signedIn(400),
      },
    ],
    // The mail opt-ins are one's own; the weekly summary only for someone who runs a group.
    'POST /api/account/notifications': [
      {
        label: 'säljmejl',
        path: '/api/account/notifications',
        body: () => ({ sale_mail: false }),
        expect: signedIn(200),
      },
      {
        label: 'veckosammanfattning',
        path: '/api/account/notifications',
        body: () => ({ weekly_summary: true }),
        expect: signedIn(200, { seller: 403, superadmin: 403, guardian: 403, otherGuardian: 403 }),
      },
    ],
    // How buyers see the seller (issue 22): their own choice; nobody in the demo is under 13.
    'GET /api/account/public-name': [{ path: '/api/account/public-name', expect: signedIn(200) }],
    'POST /api/account/public-name': [
      { path: '/api/account/public-name', body: () => ({ public_name: 'first_name', alias: null }), expect: signedIn(200) },
    ],
    'GET /api/account/groups': [
      {
        path: '/api/account/groups',
        expect: signedIn(200),
        check: async (role, body) => {
          const { groups } = JSON.parse(body) as TAccountGroupsResponse;
          expect(groups.map((group) => group.group_id).sort()).toEqual([...ownData(role).groupIds].sort());
        },
      },
    ],
    'POST /api/account/switch-group': [
      {
        label: 'gruppens id',
        path: '/api/account/switch-group',
        body: () => ({ group_id: c.group }),
        expect: signedIn(200, { otherAdmin: 403, superadmin: 403, guardian: 403, otherGuardian: 403 }),
      },
      {
        label: 'den andra gruppens id',
        path: '/api/account/switch-group',
        body: () => ({ group_id: c.otherGroup }),
        expect: signedIn(403, { otherAdmin: 200 }),
      },
    ],

    // Issue 22: one's own data, as a file, and one's own erasure (the wrong password here: 400).
    'GET /api/account/export': [
      {
        path: '/api/account/export',
        expect: signedIn(200),
        check: async (role, body) => {
          const data = JSON.parse(body) as TAccountExport;
          expect(data.account).toMatchObject({ id: ownData(role).userId, email: ownData(role).email });
        },
      },
    ],
    'POST /api/account/delete': [
      { label: 'fel lösenord', path: '/api/account/delete', body: () => ({ password: 'fel-lösenord' }), expect: signedIn(400) },
    ],

    // The dashboard: the active group of the caller, never another's.
    'GET /api/me/summary': [
      {
        path: '/api/me/summary',
        expect: signedIn(200),
        check: async (role, body) => {
          const summary = JSON.parse(body) as TMeSummaryResponse;
          expect(summary.user.id).toBe(ownData(role).userId);
          expect(summary.group_hint?.id ?? null).toBe(ownData(role).activeGroupId);
        },
      },
    ],
    'GET /api/group/totals': [
      {
        path: '/api/group/totals',
        expect: signedIn(200),
        check: async (role, body) => {
          const { totals } = JSON.parse(body) as TGroupTotalsResponse;
          const groupId = ownData(role).activeGroupId;
          const own =
            groupId === null ? { sales_ore: 0, orders_count: 0 } : await figuresFromOrders(server.app.db, sql`group_id = ${groupId}`);
          expect([Math.round(totals.total_sales * 100), totals.orders_count]).toEqual([own.sales_ore, own.orders_count]);
        },
      },
    ],
    'GET /api/group/leaderboard-mine': [
      {
        path: '/api/group/leaderboard-mine',
        expect: signedIn(200),
        check: async (role, body) => {
          const { items } = JSON.parse(body) as TFullLeaderboard;
          const groupId = ownData(role).activeGroupId;
          const members = await sqlRows<{ user_id: number }>(
            server.app.db,
            sql`select user_id from memberships where group_id = ${groupId}`,
          );
          const memberIds = new Set(members.map((member) => Number(member.user_id)));
          for (const item of items) expect(memberIds.has(item.user_id), `${role} ser ${item.seller_name}`).toBe(true);
        },
      },
    ],
    // Class totals over time (issue 20): any member of that very group, in every leaderboard mode.
    'GET /api/group/sales-per-day': [
      {
        label: 'gruppens id',
        path: `/api/group/sales-per-day?group_id=${c.group}`,
        expect: signedIn(403, { seller: 200, groupAdmin: 200 }),
        check: async (_role, body) => expect((JSON.parse(body) as TSalesPerDayResponse).group_id).toBe(c.group),
      },
      {
        label: 'den andra gruppens id',
        path: `/api/group/sales-per-day?group_id=${c.otherGroup}`,
        expect: signedIn(403, { otherAdmin: 200 }),
        check: async (_role, body) => expect((JSON.parse(body) as TSalesPerDayResponse).group_id).toBe(c.otherGroup),
      },
    ],
    // Only an admin of that very group decides what its class sees (superadmins too are refused).
    'POST /api/group/settings': [
      {
        label: 'gruppens id',
        path: '/api/group/settings',
        body: () => ({ group_id: c.group, show_leaderboard: true }),
        expect: signedIn(403, { groupAdmin: 200 }),
      },
      {
        label: 'den andra gruppens id',
        path: '/api/group/settings',
        body: () => ({ group_id: c.otherGroup, show_leaderboard: true }),
        expect: signedIn(403, { otherAdmin: 200 }),
      },
    ],
    // Issue 20: the class goal, by the group's admin or a superadmin (the admin group detail).
    'POST /api/group/goal': [
      {
        label: 'gruppens id',
        path: '/api/group/goal',
        body: () => ({ group_id: c.group, amount: null }),
        expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }),
      },
      {
        label: 'den andra gruppens id',
        path: '/api/group/goal',
        body: () => ({ group_id: c.otherGroup, amount: null }),
        expect: signedIn(403, { otherAdmin: 200, superadmin: 200 }),
      },
    ],
    // Issue 31: the campaign's days, by the group's admin or a superadmin. A running campaign, so
    // that every link this matrix follows still leads to the shop.
    'POST /api/group/campaign': [
      {
        label: 'gruppens id',
        path: '/api/group/campaign',
        body: () => ({ group_id: c.group, starts_on: stockholmToday(), ends_on: campaignEnd() }),
        expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }),
      },
      {
        label: 'den andra gruppens id',
        path: '/api/group/campaign',
        body: () => ({ group_id: c.otherGroup, starts_on: stockholmToday(), ends_on: campaignEnd() }),
        expect: signedIn(403, { otherAdmin: 200, superadmin: 200 }),
      },
    ],
    // The closing note waits for the campaign's end: the group's admin and a superadmin get that far.
    // Issue 32: the class link, the text for buyers and the poster are the group admin's.
    'GET /api/group/class-link': [
      {
        label: 'gruppens id',
        path: `/api/group/class-link?group_id=${c.group}`,
        expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }),
      },
      {
        label: 'den andra gruppens id',
        path: `/api/group/class-link?group_id=${c.otherGroup}`,
        expect: signedIn(403, { otherAdmin: 200, superadmin: 200 }),
      },
    ],
    'GET /api/group/poster.pdf': [
      {
        label: 'gruppens id',
        path: `/api/group/poster.pdf?group_id=${c.group}`,
        expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }),
      },
    ],
    'POST /api/group/buyer-greeting': [
      {
        label: 'gruppens id',
        path: '/api/group/buyer-greeting',
        body: () => ({ group_id: c.group, text: 'Tack för att ni stöttar oss!' }),
        expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }),
      },
    ],
    'POST /api/group/closing-note': [
      {
        label: 'gruppens id',
        path: '/api/group/closing-note',
        body: () => ({ group_id: c.group, text: 'Vi åkte till Kolmården' }),
        expect: signedIn(403, { groupAdmin: 409, superadmin: 409 }),
      },
    ],
    // Next term: a pupil of another class is refused at the field, after the permission, so nothing is cloned here.
    'POST /api/group/clone': [
      {
        label: 'gruppens id',
        path: '/api/group/clone',
        body: () => ({ group_id: c.group, name: 'Matrisens klass', membership_ids: [2_147_483_647] }),
        expect: signedIn(403, { groupAdmin: 400, superadmin: 400 }),
      },
    ],
    // The pupil's own goal, in their own active membership only; a superadmin is in no group.
    'POST /api/me/personal-goal': [
      {
        path: '/api/me/personal-goal',
        body: () => ({ amount: null }),
        expect: signedIn(200, { superadmin: 409, guardian: 409, otherGuardian: 409 }),
      },
    ],
    // The class list and the protected-identity mark: the group's own admin, or a superadmin.
    'GET /api/group/members': [
      { label: 'gruppens id', path: `/api/group/members?group_id=${c.group}`, expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }) },
      {
        label: 'den andra gruppens id',
        path: `/api/group/members?group_id=${c.otherGroup}`,
        expect: signedIn(403, { otherAdmin: 200, superadmin: 200 }),
      },
    ],
    'GET /api/group/orders': [
      { label: 'gruppens id', path: `/api/group/orders?group_id=${c.group}`, expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }) },
      {
        label: 'den andra gruppens id',
        path: `/api/group/orders?group_id=${c.otherGroup}`,
        expect: signedIn(403, { otherAdmin: 200, superadmin: 200 }),
      },
    ],
    // An order of another class is not found: its id tells nothing about that class.
    // The class list (issue 31): a row refused for its one name stores nothing, whoever may send it.
    'POST /api/group/roster': [
      {
        label: 'gruppens id',
        path: '/api/group/roster',
        body: () => ({ group_id: c.group, pupils: [{ full_name: 'Ettnamn' }] }),
        expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }),
      },
      {
        label: 'den andra gruppens id',
        path: '/api/group/roster',
        body: () => ({ group_id: c.otherGroup, pupils: [{ full_name: 'Ettnamn' }] }),
        expect: signedIn(403, { otherAdmin: 200, superadmin: 200 }),
      },
    ],
    'POST /api/group/roster/slips': [
      {
        label: 'gruppens id',
        path: '/api/group/roster/slips',
        body: () => ({ group_id: c.group }),
        // 6B has no class-list pupils: nothing to print, once allowed.
        expect: signedIn(403, { groupAdmin: 404, superadmin: 404 }),
      },
      {
        label: 'den andra gruppens id (scouterna, med en elev från klasslista utan vårdnadshavare)',
        path: '/api/group/roster/slips',
        body: () => ({ group_id: c.otherGroup }),
        expect: signedIn(403, { otherAdmin: 200, superadmin: 200 }),
      },
    ],
    'POST /api/group/orders/:id/move': [
      {
        path: `/api/group/orders/${c.classOrderId}/move`,
        body: () => ({ to_membership_id: c.sellerMembershipId, reason: 'Matrisens prov' }),
        expect: signedIn(404, { groupAdmin: 200, superadmin: 200 }),
      },
    ],
    'GET /api/group/payout-account': [
      {
        label: 'gruppens id',
        path: `/api/group/payout-account?group_id=${c.group}`,
        expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }),
      },
      {
        label: 'den andra gruppens id',
        path: `/api/group/payout-account?group_id=${c.otherGroup}`,
        expect: signedIn(403, { otherAdmin: 200, superadmin: 200 }),
      },
    ],
    'POST /api/group/members/protected': [
      {
        label: 'gruppens id',
        path: '/api/group/members/protected',
        body: () => ({ group_id: c.group, membership_id: c.sellerMembershipId, protected: false }),
        expect: signedIn(403, { groupAdmin: 200, superadmin: 200 }),
      },
      {
        label: 'den andra gruppens id med en elev ur gruppen',
        path: '/api/group/members/protected',
        body: () => ({ group_id: c.otherGroup, membership_id: c.sellerMembershipId, protected: false }),
        expect: signedIn(403),
      },
    ],
    // A superadmin sells for no group, so has no catalogue of their own.
    // Nor does a guardian: they get their child's through the guardian view.
    'GET /api/catalog/me.pdf': [
      { path: '/api/catalog/me.pdf', expect: signedIn(200, { superadmin: 404, guardian: 404, otherGuardian: 404 }) },
    ],

    // Issue 22: the consent link's calls are public (the code is the credential); the guardian view
    // answers only a guardian with an approved link to that very child, and 404 to everyone else.
    'GET /api/guardian/consent': [{ label: 'okänd kod', path: `/api/guardian/consent?code=${'x'.repeat(43)}`, expect: anyone(404) }],
    'POST /api/guardian/consent': [
      {
        label: 'okänd kod',
        path: '/api/guardian/consent',
        body: () => ({ code: 'x'.repeat(43), decision: 'decline' }),
        expect: anyone(404),
      },
    ],
    'GET /api/guardian/children': [
      {
        path: '/api/guardian/children',
        expect: signedIn(200),
        check: async (role, body) => {
          const { children } = JSON.parse(body) as TGuardianChildrenResponse;
          const own = role === 'guardian' ? [c.childUserId, c.withdrawnChildUserId] : role === 'otherGuardian' ? [c.otherChildUserId] : [];
          expect(
            children.map((child) => child.user_id).every((id) => own.includes(id)),
            `${role} ser andras barn`,
          ).toBe(true);
        },
      },
    ],
    ...Object.fromEntries(
      ['summary', 'totals', 'leaderboard', 'catalog.pdf', 'public-name'].map((part) => [
        `GET /api/guardian/children/:id/${part}`,
        [
          { label: 'eget barn', path: `/api/guardian/children/${c.childUserId}/${part}`, expect: signedIn(404, { guardian: 200 }) },
          {
            label: 'den andras barn',
            path: `/api/guardian/children/${c.otherChildUserId}/${part}`,
            expect: signedIn(404, { otherGuardian: 200 }),
          },
          { label: 'en säljare', path: `/api/guardian/children/${c.sellerUserId}/${part}`, expect: signedIn(404) },
        ],
      ]),
    ),
    // How buyers see a child under 13: only that child's approved guardian chooses (issue 22).
    // Only a class-list pupil's password (issue 31): the guardian's child here registered with an address.
    'POST /api/guardian/children/:id/password': [
      {
        label: 'eget barn med e-postadress',
        path: `/api/guardian/children/${c.childUserId}/password`,
        body: () => ({ new_password: 'nytt-losen-123' }),
        expect: signedIn(404),
      },
    ],
    'POST /api/guardian/children/:id/public-name': [
      {
        label: 'eget barn',
        path: `/api/guardian/children/${c.childUserId}/public-name`,
        body: () => ({ public_name: 'first_name', alias: null }),
        expect: signedIn(404, { guardian: 200 }),
      },
      {
        label: 'en säljare',
        path: `/api/guardian/children/${c.sellerUserId}/public-name`,
        body: () => ({ public_name: 'alias', alias: 'Matris' }),
        expect: signedIn(404),
      },
    ],
    // Erases the child: a child of its own, so the other rows keep theirs.
    'POST /api/guardian/children/:id/withdraw': [
      { label: 'en säljare', path: `/api/guardian/children/${c.sellerUserId}/withdraw`, body: () => ({}), expect: signedIn(404) },
      {
        label: 'eget barn',
        path: `/api/guardian/children/${c.withdrawnChildUserId}/withdraw`,
        body: () => ({}),
        expect: signedIn(404, { guardian: 200 }),
      },
    ],

    // Shopify: the signature is the only credential; a bearer token is none.
    'POST /api/webhooks/shopify': [
      {
        label: 'osignerad',
        path: '/api/webhooks/shopify',
        body: () => ({ id: 1 }),
        headers: { 'x-shopify-topic': 'orders/create' },
        expect: anyone(401),
      },
      { label: 'signerad', path: '/api/webhooks/shopify', expect: anyone(200), ...signedWebhookProbe() },
    ],

    // The superadmin area: nobody else, whichever group an id points at.
    // Live figures: a ticket for whoever is signed in; the stream itself takes a ticket, never a token.
    'POST /api/events/ticket': [{ path: '/api/events/ticket', expect: signedIn(200) }],
    'GET /api/events': [{ path: '/api/events?ticket=ogiltig', expect: anyone(401) }],
    'GET /api/admin/overview': [{ path: '/api/admin/overview', expect: superadminOnly(200) }],
    'GET /api/admin/overview/sales-per-week': [{ path: '/api/admin/overview/sales-per-week?weeks=8', expect: superadminOnly(200) }],
    'GET /api/admin/groups': [{ path: '/api/admin/groups?status=all', expect: superadminOnly(200) }],
    'POST /api/admin/groups/create': [
      { path: '/api/admin/groups/create', body: () => ({ group_name: `Matrisgrupp ${unique()}` }), expect: superadminOnly(200) },
    ],
    'GET /api/admin/groups/options': [{ path: '/api/admin/groups/options', expect: superadminOnly(200) }],
    'GET /api/admin/groups/:id/members': [
      { label: 'gruppen', path: `/api/admin/groups/${c.group}/members`, expect: superadminOnly(200) },
      { label: 'den andra gruppen', path: `/api/admin/groups/${c.otherGroup}/members`, expect: superadminOnly(200) },
    ],
    'GET /api/admin/groups/:id': [
      { label: 'gruppen', path: `/api/admin/groups/${c.group}`, expect: superadminOnly(200) },
      { label: 'den andra gruppen', path: `/api/admin/groups/${c.otherGroup}`, expect: superadminOnly(200) },
    ],
    'GET /api/admin/groups/:id/sales-per-day': [
      { label: 'gruppen', path: `/api/admin/groups/${c.group}/sales-per-day`, expect: superadminOnly(200) },
      { label: 'den andra gruppen', path: `/api/admin/groups/${c.otherGroup}/sales-per-day`, expect: superadminOnly(200) },
    ],
    'POST /api/admin/groups/:id/add-user': [
      {
        path: `/api/admin/groups/${c.otherGroup}/add-user`,
        body: () => ({ email: `matris-${unique()}@demo.se`, role: 'seller', full_name: 'Matris Testsson' }),
        expect: superadminOnly(200),
      },
    ],
    'GET /api/admin/group/:id': [
      { label: 'gruppen', path: `/api/admin/group/${c.group}`, expect: superadminOnly(200) },
      { label: 'den andra gruppen', path: `/api/admin/group/${c.otherGroup}`, expect: superadminOnly(200) },
    ],
    'PATCH /api/admin/group/:id': [{ path: `/api/admin/group/${c.group}`, body: () => ({ archived: false }), expect: superadminOnly(200) }],
    'POST /api/admin/group/:id/archive': [
      { path: `/api/admin/group/${c.otherGroup}/archive`, body: () => ({ archived: false }), expect: superadminOnly(200) },
    ],
    'POST /api/admin/group/:id/rename': [
      { path: `/api/admin/group/${c.group}/rename`, body: () => ({ name: 'Klass 6B Björkskolan' }), expect: superadminOnly(200) },
    ],
    'GET /api/admin/group/:id/export': [
      { label: 'gruppen', path: `/api/admin/group/${c.group}/export`, expect: superadminOnly(200) },
      { label: 'den andra gruppen', path: `/api/admin/group/${c.otherGroup}/export`, expect: superadminOnly(200) },
    ],
    'GET /api/admin/sellers': [{ path: '/api/admin/sellers', expect: superadminOnly(200) }],
    'GET /api/admin/seller/:userId/orders': [
      { path: `/api/admin/seller/${c.sellerUserId}/orders?group_id=${c.group}`, expect: superadminOnly(200) },
    ],
    'GET /api/admin/orders/unattributed': [{ path: '/api/admin/orders/unattributed', expect: superadminOnly(200) }],
    'POST /api/admin/orders/:id/assign': [
      {
        path: `/api/admin/orders/${c.unattributedOrderId}/assign`,
        body: () => ({ membership_id: c.sellerMembershipId }),
        expect: superadminOnly(200),
      },
    ],
    'GET /api/admin/payouts': [{ path: '/api/admin/payouts', expect: superadminOnly(200) }],
    'GET /api/admin/payouts/export.csv': [{ path: '/api/admin/payouts/export.csv', expect: superadminOnly(200) }],
    'GET /api/admin/payouts/outstanding': [{ path: '/api/admin/payouts/outstanding', expect: superadminOnly(200) }],
    'POST /api/admin/payouts': [
      {
        path: '/api/admin/payouts',
        body: () => ({ group_id: c.group, from: '2020-01-01', to: '2099-12-31', auto_archive: false }),
        expect: superadminOnly(200),
      },
    ],
    'PATCH /api/admin/payouts/:id': [
      { path: `/api/admin/payouts/${c.draftPayoutId}`, body: () => ({ status: 'paid' }), expect: superadminOnly(200) },
    ],
    'GET /api/admin/groups/:id/payout-account': [{ path: `/api/admin/groups/${c.group}/payout-account`, expect: superadminOnly(200) }],
    'PUT /api/admin/groups/:id/payout-account': [
      {
        path: `/api/admin/groups/${c.group}/payout-account`,
        body: () => ({ kind: 'bankgiro', account_number: '9991-2347', holder_name: 'Matrisskolan' }),
        expect: superadminOnly(200),
      },
    ],
    'GET /api/admin/payouts/:id/export.pdf': [{ path: `/api/admin/payouts/${c.draftPayoutId}/export.pdf`, expect: superadminOnly(200) }],
    'GET /api/admin/webhooks': [{ path: '/api/admin/webhooks?status=failed', expect: superadminOnly(200) }],
    'GET /api/admin/webhooks/:id': [{ path: `/api/admin/webhooks/${c.failedWebhookEventId}`, expect: superadminOnly(200) }],
    'POST /api/admin/webhooks/:id/replay': [{ path: `/api/admin/webhooks/${c.failedWebhookEventId}/replay`, expect: superadminOnly(200) }],
    'POST /api/admin/users/:userId/erase': [{ path: `/api/admin/users/${c.erasableUserId}/erase`, expect: superadminOnly(200) }],
    'GET /api/admin/audit': [{ path: '/api/admin/audit?action=group.rename', expect: superadminOnly(200) }],
  };

  function signedWebhookProbe(): Pick<Probe, 'body' | 'headers'> {
    // A fresh webhook id per call would need a fresh signature; one topic Shopify may send that we ignore.
    const { body, headers } = signedWebhook('app/uninstalled');
    return { body: () => body, headers };
  }
}

let server: TestServer;
let context: Context;
const tokens = new Map<Role, string | undefined>([['guest', undefined]]);

/** A fingerprint of everything a refused call could have changed. */
async function fingerprint(): Promise<string> {
  const [row] = await sqlRows<{ digest: string }>(
    server.app.db,
    sql`select md5(concat_ws('|',
      (select string_agg(concat_ws(',', id, name, code, archived, leaderboard_visible, leaderboard_mode, goal_ore, goal_purpose, goal_ends_on), ';' order by id) from groups),
      (select string_agg(concat_ws(',', id, email, full_name, phone, password_hash, active_group_id, token_version, is_superadmin, public_name, alias), ';' order by id) from users),
      (select string_agg(concat_ws(',', id, user_id, group_id, role, personal_goal_ore, protected_identity), ';' order by id) from memberships),
      (select string_agg(concat_ws(',', id, status, commission_ore), ';' order by id) from payouts),
      (select string_agg(concat_ws(',', id, membership_id, group_id), ';' order by id) from orders),
      (select count(*) from order_lines where payout_id is not null),
      (select count(*) from refresh_tokens where revoked_at is null),
      (select count(*) from audit_entries),
      (select count(*) from password_reset_codes)
    )) as digest`,
  );
  return row!.digest;
}

async function person(email: string): Promise<Person> {
  const [user] = await sqlRows<{ id: number; email: string; full_name: string; active_group_id: number | null }>(
    server.app.db,
    sql`select id, email, full_name, active_group_id from users where email = ${email}`,
  );
  const memberships = await sqlRows<{ group_id: number }>(server.app.db, sql`select group_id from memberships where user_id = ${user!.id}`);
  return {
    userId: Number(user!.id),
    email: user!.email,
    fullName: user!.full_name,
    activeGroupId: user!.active_group_id === null ? null : Number(user!.active_group_id),
    groupIds: memberships.map((membership) => Number(membership.group_id)),
  };
}

/** A pupil under 13 in 6B whose guardian approves with a new or their existing account; the pupil's user id. */
const childWithGuardian = (guardianEmail: string, account: 'new' | 'existing') =>
  registerChildWithGuardian(server, { childEmail: `matris-barn-${unique()}@demo.se`, guardianEmail, account });

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const group = await groupIdByCode(server.app.db, 'BJK6B2');
  const otherGroup = await groupIdByCode(server.app.db, 'SCT482');
  const noah = await membershipOf(server.app.db, 'noah@demo.se', 'BJK6B2');
  const [draft] = await sqlRows<{ id: number }>(server.app.db, sql`select id from payouts where status = 'draft' order by id limit 1`);
  const [link] = await sqlRows<{ link_code: string }>(server.app.db, sql`select link_code from memberships where id = ${noah.id}`);
  const unattributed = await insertOrder(server.app.db, { membership: null, orderedAt: new Date(), lines: [{ amountOre: 14900 }] });
  const classOrder = await insertOrder(server.app.db, {
    membership: { id: noah.id, groupId: group },
    orderedAt: new Date(),
    lines: [{ amountOre: 14900 }],
  });
  const [failedEvent] = await sqlRows<{ id: number }>(
    server.app.db,
    sql`insert into webhook_events (webhook_id, topic, payload, attempts, last_error)
        values ('matris-misslyckad', 'app/uninstalled', '{"id":1}', 1, 'databasen svarade inte') returning id`,
  );
  const registered = await server.request('POST', '/api/auth/register-seller', {
    body: { full_name: 'Matris Raderbar', email: 'matris-raderbar@demo.se', password: 'hemligt123', group_code: 'BJK6B2' },
  });
  expect(registered.status).toBe(200);
  const [erasable] = await sqlRows<{ id: number }>(server.app.db, sql`select id from users where email = 'matris-raderbar@demo.se'`);
  const [child, otherChild, withdrawnChild] = [
    await childWithGuardian('vardnadshavare@demo.se', 'new'),
    await childWithGuardian('annan.vardnadshavare@demo.se', 'new'),
    await childWithGuardian('vardnadshavare@demo.se', 'existing'),
  ];
  const people = {} as Context['people'];
  for (const [role, email] of Object.entries(PEOPLE) as [Exclude<Role, 'guest'>, string][]) {
    people[role] = await person(email);
    tokens.set(role, await server.login(email));
  }
  context = {
    group,
    otherGroup,
    sellerUserId: noah.userId,
    draftPayoutId: Number(draft!.id),
    unattributedOrderId: unattributed.id,
    classOrderId: classOrder.id,
    sellerMembershipId: noah.id,
    failedWebhookEventId: Number(failedEvent!.id),
    linkCode: link!.link_code,
    classLinkCode: (await sqlRows<{ code: string }>(server.app.db, sql`select class_link_code as code from groups where id = ${group}`))[0]!
      .code,
    erasableUserId: Number(erasable!.id),
    childUserId: child,
    otherChildUserId: otherChild,
    withdrawnChildUserId: withdrawnChild,
    people,
  };
});
afterAll(() => server.close());

// Every route as seven roles (issue 22 added the two guardians), each GET probe twice: longer than an ordinary test.
describe('the permission matrix', { timeout: 240_000 }, () => {
  it('has an entry for every route of the server, and no entry for a route that is gone', () => {
    const routes = server.routes;
    expect(routes.length).toBeGreaterThan(30);
    const covered = new Set(
      Object.keys(matrix(context, server)).flatMap((key) => (key.startsWith('GET ') ? [key, `HEAD ${key.slice(4)}`] : [key])),
    );
    expect(
      routes.filter((route) => !covered.has(route)),
      'vägar som saknar en rad i behörighetsmatrisen',
    ).toEqual([]);
    expect(
      [...covered].filter((route) => !routes.includes(route)),
      'rader i matrisen för vägar som inte finns',
    ).toEqual([]);
  });

  it('gives each role exactly its outcome on every route, changes nothing when it refuses, shows only the caller its own data, and lets no answer be cached', async () => {
    const failures: string[] = [];
    for (const [key, probes] of Object.entries(matrix(context, server))) {
      const [method, routePath] = key.split(' ') as [string, string];
      const methods = method === 'GET' ? ['GET', 'HEAD'] : [method];
      for (const probe of probes) {
        for (const role of ROLES) {
          for (const sent of methods) {
            const before = await fingerprint();
            const body = sent === 'HEAD' ? undefined : probe.body?.(role);
            const token = tokens.get(role);
            // Not followed: a personal link's redirect to the shop is itself the outcome.
            const response = await fetch(server.url + probe.path, {
              method: sent,
              redirect: 'manual',
              headers: {
                ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
                ...(token ? { authorization: `Bearer ${token}` } : {}),
                ...probe.headers,
              },
              body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
            });
            // Read whole, so no answer (a PDF, a CSV stream) is left half-sent when the server closes.
            const text = await response.text();
            const where = `${sent} ${routePath}${probe.label ? ` (${probe.label})` : ''} som ${role}`;
            if (response.status !== probe.expect[role]) {
              failures.push(`${where}: ${response.status}, väntade ${probe.expect[role]} ${text.slice(0, 200)}`);
              continue;
            }
            if (response.status === 401 || response.status === 403) {
              if ((await fingerprint()) !== before) failures.push(`${where}: nekades men ändrade data`);
            }
            // Issue 15: no answer of the API or of a personal link may be kept by a browser or a proxy.
            if (response.headers.get('cache-control') !== 'no-store') {
              failures.push(`${where}: Cache-Control ${response.headers.get('cache-control')}, väntade no-store`);
            }
            if (role !== 'guest' && probe.check && sent === 'GET' && response.ok) await probe.check(role, text);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers an id or a page number that is not plain decimal with 400 or 404, never with the record of its value', async () => {
    // Page numbers, sizes and offsets, and group filters, on the lists that take them (issue 15).
    const numericQueries: Record<string, string> = {
      'GET /api/admin/groups': 'limit=16&offset=16',
      'GET /api/admin/group/:id': 'limit=16&offset=16',
      'GET /api/admin/sellers': `group_id=${context.group}&limit=16&offset=16`,
      'GET /api/admin/seller/:userId/orders': 'limit=16&offset=16',
      'GET /api/admin/payouts': `group_id=${context.group}`,
      'GET /api/admin/orders/unattributed': 'page=16&page_size=16',
    };
    const failures: string[] = [];
    const tried = new Set<string>();
    for (const [key, probes] of Object.entries(matrix(context, server))) {
      const [method, routePath] = key.split(' ') as [string, string];
      const idSegments = routePath.split('/').flatMap((segment, index) => (/^:(id|userId)$/.test(segment) ? [index] : []));
      for (const probe of probes) {
        // As the role the probe lets through: a refusal for any other reason would hide what the id did.
        const role = ROLES.find((candidate) => probe.expect[candidate] === 200);
        if (!role) continue;
        const [pathname, probeQuery] = probe.path.split('?') as [string, string?];
        const query = [probeQuery, numericQueries[key]].filter(Boolean).join('&');
        const body = probe.body?.(role);
        const variants: { where: string; path: string; body?: unknown }[] = [];
        for (const index of idSegments) {
          for (const spelling of misspelt(Number(pathname.split('/')[index]))) {
            const segments = pathname.split('/');
            segments[index] = encodeURIComponent(spelling);
            variants.push({ where: `${segments.join('/')}`, path: `${segments.join('/')}${query ? `?${query}` : ''}`, body });
          }
        }
        for (const [name, value] of new URLSearchParams(query)) {
          if (!/^(group_id|limit|offset|page|page_size)$/.test(name)) continue;
          // An empty query field means "not given" (spec §7 forms send empty fields), so it is not tried here.
          for (const spelling of misspelt(Number(value)).filter(Boolean)) {
            const params = new URLSearchParams(query);
            params.set(name, spelling);
            variants.push({ where: `${pathname}?${name}=${JSON.stringify(spelling)}`, path: `${pathname}?${params}`, body });
          }
        }
        for (const name of ['group_id', 'membership_id']) {
          if (typeof body !== 'object' || body === null || typeof (body as Record<string, unknown>)[name] !== 'number') continue;
          for (const spelling of misspelt((body as Record<string, number>)[name]!)) {
            variants.push({
              where: `${pathname} {${name}: ${JSON.stringify(spelling)}}`,
              path: probe.path,
              body: { ...body, [name]: spelling },
            });
          }
        }
        for (const variant of variants) {
          const sent = `${method} ${variant.path} ${JSON.stringify(variant.body)}`;
          if (tried.has(sent)) continue;
          tried.add(sent);
          const before = await fingerprint();
          const token = tokens.get(role);
          const response = await fetch(server.url + variant.path, {
            method,
            headers: {
              ...(variant.body !== undefined ? { 'content-type': 'application/json' } : {}),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            body: variant.body === undefined ? undefined : JSON.stringify(variant.body),
          });
          const text = await response.text();
          const where = `${method} ${variant.where} som ${role}`;
          if (response.status !== 400 && response.status !== 404) {
            failures.push(`${where}: ${response.status} ${text.slice(0, 120)}`);
          } else if (!(JSON.parse(text) as { error?: { message?: string } }).error?.message) {
            failures.push(`${where}: inget fel i svaret ${text.slice(0, 120)}`);
          }
          if ((await fingerprint()) !== before) failures.push(`${where}: ändrade data`);
        }
      }
    }
    expect(tried.size).toBeGreaterThan(200);
    expect(failures).toEqual([]);
  });
});

/**
 * Spellings of `value` that `Number()` reads as `value` (or as another number) but that are not
 * plain decimal, and the empty text.
 */
function misspelt(value: number): string[] {
  return [
    `0x${value.toString(16)}`,
    `0b${value.toString(2)}`,
    `0o${value.toString(8)}`,
    `+${value}`,
    `0${value}`,
    `0000${value}`,
    `${value}.0`,
    `${value}.`,
    ` ${value}`,
    `${value} `,
    `\t${value}`,
    `${value}e0`,
    '1e1',
    '-0',
    '',
  ];
}
