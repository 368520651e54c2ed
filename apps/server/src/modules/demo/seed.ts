import { and, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.js';
import {
  groupPayoutAccounts,
  groups,
  guardianLinks,
  memberships,
  orderLines,
  orders,
  products,
  refreshTokens,
  users,
} from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/random-codes.js';
import { hashPassword } from '../../lib/passwords.js';
import { generateDemoPassword, keepDemoPassword, readDemoPassword } from '../../db/demo-password.js';
import { commissionOre } from '../../lib/money.js';
import { stockholmDate } from '../../lib/dates.js';
import { createPayout } from '../payouts/create-payout.js';
import { markPayoutPaid } from '../payouts/mark-payout-paid.js';

/** The demo's accounts; all share the data dir's generated password (db/demo-password.ts). */
export const DEMO_LOGINS = [
  { label: 'Superadmin', email: 'admin@saljportalen.se' },
  { label: 'Gruppadmin (lärare, 6B)', email: 'larare@bjorkskolan.se' },
  { label: 'Säljare (i två grupper)', email: 'elsa@demo.se' },
  { label: 'Säljare', email: 'noah@demo.se' },
] as const;

export const DEMO_GROUPS = [
  { name: 'Klass 6B Björkskolan', code: 'BJK6B2', archived: false },
  { name: 'IK Sävedalen F12', code: 'SFKP24', archived: false },
  { name: 'Scoutkåren Tallen', code: 'SCT482', archived: false },
  { name: 'Klass 9A Ekskolan', code: 'EK9A34', archived: true },
] as const;

const DEMO_PRODUCTS = [
  ['Bivaxdukar 3-pack', 'Ersätter plastfolie. Tvättbara och håller i ett år.', 14900],
  ['Ekologiskt kaffe 500 g', 'Mellanrost, rättvisemärkt och ekologiskt odlat.', 11900],
  ['Tandborstar i bambu 4-pack', 'Handtag av bambu som kan komposteras.', 8900],
  ['Strumpor av återvunnen bomull', 'Ett par i storlek 36–40 eller 41–45.', 9900],
  ['Tygkasse i ekologisk bomull', 'Rymlig kasse som håller för många års handlande.', 7900],
  ['Svensk honung 350 g', 'Från biodlare i Västergötland.', 10900],
  ['Diskborste i trä och sisal', 'Utbytbart borsthuvud, plastfri.', 6900],
  ['Fröbomber ängsblommor', 'Kasta ut i rabatten och hjälp bin och fjärilar.', 5900],
  ['Tvål med havtorn', 'Handgjord i Sverige med kallprocess.', 6500],
  ['Doftljus av rapsvax', 'Brinner i 30 timmar, doft av äpple och kanel.', 12900],
] as const;

/** The seed's products: its SKUs, which no Shopify import gives a product without a Shopify id. */
export const DEMO_PRODUCTS_BY_SKU = new Map(DEMO_PRODUCTS.map(([title], i) => [demoSku(i), title]));
function demoSku(index: number) {
  return `SP-${String(index + 1).padStart(3, '0')}`;
}

/** The seed's orders have Shopify ids from here on (and no webhook event behind them). */
export const DEMO_ORDER_IDS_FROM = 5_500_000_000_000;

/** Names of the demo's people; the bench's generated sellers take them too. */
export const FIRST_NAMES = [
  'Elsa',
  'Noah',
  'Alice',
  'William',
  'Maja',
  'Hugo',
  'Vera',
  'Liam',
  'Astrid',
  'Oscar',
  'Selma',
  'Lucas',
  'Ebba',
  'Elias',
  'Alma',
  'Adam',
  'Wilma',
  'Nils',
  'Saga',
  'Axel',
  'Ella',
  'Leo',
  'Freja',
  'Ludvig',
  'Stella',
  'Sixten',
  'Ines',
  'Melvin',
  'Juni',
  'Otto',
];
export const LAST_NAMES = [
  'Andersson',
  'Johansson',
  'Karlsson',
  'Nilsson',
  'Eriksson',
  'Larsson',
  'Olsson',
  'Persson',
  'Svensson',
  'Gustafsson',
  'Pettersson',
  'Jonsson',
  'Lindberg',
  'Åberg',
  'Öberg',
  'Lindqvist',
  'Bergström',
  'Söderberg',
];

type DemoPerson = { email: string; fullName: string; phone: string | null; groupIndex: number; role: 'seller' | 'admin' };

/** The demo's people besides its superadmin: group admins first, then sellers spread over the groups. */
function demoPeople(): DemoPerson[] {
  const people: DemoPerson[] = [
    { email: DEMO_LOGINS[1].email, fullName: 'Karin Lärare', phone: '070-123 45 67', groupIndex: 0, role: 'admin' },
    { email: 'tranare@savedalen.se', fullName: 'Johan Tränare', phone: '073-765 43 21', groupIndex: 1, role: 'admin' },
    { email: 'ledare@tallen.se', fullName: 'Mona Ledare', phone: null, groupIndex: 2, role: 'admin' },
    { email: 'mentor@ekskolan.se', fullName: 'Per Mentor', phone: null, groupIndex: 3, role: 'admin' },
  ];
  const groupSizes = [10, 8, 6, 6];
  let nameIndex = 0;
  groupSizes.forEach((size, groupIndex) => {
    for (let i = 0; i < size; i++) {
      const first = FIRST_NAMES[nameIndex % FIRST_NAMES.length]!;
      const last = LAST_NAMES[(nameIndex * 7) % LAST_NAMES.length]!;
      const email =
        nameIndex < 2
          ? `${first.toLowerCase()}@demo.se`
          : `${first.toLowerCase()}.${last.toLowerCase().replace(/å|ä/g, 'a').replace(/ö/g, 'o')}@demo.se`;
      people.push({ email, fullName: `${first} ${last}`, phone: null, groupIndex, role: 'seller' });
      nameIndex++;
    }
  });
  return people;
}

/**
 * Pupils the scouts' leader added from a class list (issue 31): usernames, no addresses. Ines's
 * guardian approved (and chose the demo's password for her), Otto's was mailed and has not
 * answered, Juni has no guardian's address and waits for a sign-in slip.
 */
export const DEMO_CLASS_LIST = [
  { username: 'ines.ob', fullName: 'Ines Öberg', guardian: 'approved' },
  { username: 'otto.ak', fullName: 'Otto Åkesson', guardian: 'invited' },
  { username: 'juni.li', fullName: 'Juni Lindqvist', guardian: null },
] as const;
export const DEMO_GUARDIAN = { email: 'maria.oberg@demo.se', fullName: 'Maria Öberg' } as const;
const DEMO_INVITED_GUARDIAN = 'per.akesson@demo.se';

/** Every address the demo seed gives an account (lower case), its superadmin's first. */
export const DEMO_EMAILS: readonly string[] = [DEMO_LOGINS[0].email, ...demoPeople().map((person) => person.email), DEMO_GUARDIAN.email];

/** What each demo account signs in with: the addresses, then the class-list pupils' usernames. */
export const DEMO_SIGN_IN_NAMES: readonly string[] = [...DEMO_EMAILS, ...DEMO_CLASS_LIST.map((pupil) => pupil.username)];

/** A small deterministic generator, so every demo database has the same figures. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whether seedDemoData would fill this database: it has no account and no group. */
export async function takesDemoData(db: Db | Tx): Promise<boolean> {
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1);
  const [anyGroup] = await db.select({ id: groups.id }).from(groups).limit(1);
  return !anyUser && !anyGroup;
}

/**
 * A believable Swedish data set on an empty database: four groups (one archived), ~30 sellers
 * with a teacher or leader as group admin, one seller in two groups, ten products, a few hundred
 * orders over the last 90 days, and one draft and one paid payout. Every demo account gets
 * `password`. Returns false, and adds nothing, when the database already has a user or a group.
 */
export async function seedDemoData(db: Db, options: { password: string; log?: FastifyBaseLogger; now?: Date }): Promise<boolean> {
  const now = options.now ?? new Date();
  const random = mulberry32(20261122);
  const passwordHash = await hashPassword(options.password);

  return db.transaction(async (tx) => {
    // Under a lock, so two processes starting at once cannot both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(4242)`);
    // Empty means no account at all: demo accounts with a known password never join real ones.
    if (!(await takesDemoData(tx))) return false;

    const insertedGroups = await tx
      .insert(groups)
      .values(DEMO_GROUPS.map((g, i) => ({ ...g, createdAt: new Date(now.getTime() - (120 - i * 5) * 86_400_000) })))
      .returning({ id: groups.id, code: groups.code });
    const groupIds = insertedGroups.map((g) => g.id);
    // Issue 31: 6B's campaign is running, a month in with two and a half weeks to go.
    const stockholmDay = (days: number) => stockholmDate(new Date(now.getTime() + days * 86_400_000));
    await tx
      .update(groups)
      .set({ campaignStartsOn: stockholmDay(-30), campaignEndsOn: stockholmDay(17) })
      .where(sql`${groups.code} = 'BJK6B2'`);

    await tx.insert(users).values({ email: DEMO_LOGINS[0].email, passwordHash, fullName: 'Sara Superadmin', isSuperadmin: true });

    const people = demoPeople();
    const insertedUsers = await tx
      .insert(users)
      .values(
        people.map((p) => ({ email: p.email, passwordHash, fullName: p.fullName, phone: p.phone, activeGroupId: groupIds[p.groupIndex]! })),
      )
      .returning({ id: users.id, email: users.email });
    const userIdByEmail = new Map(insertedUsers.map((u) => [u.email, u.id]));

    const membershipValues = people.map((p, i) => ({
      userId: userIdByEmail.get(p.email)!,
      groupId: groupIds[p.groupIndex]!,
      role: p.role,
      linkCode: `DEMO${String(i + 1).padStart(4, '0')}`,
    }));
    // Elsa sells for her class and for her football team.
    membershipValues.push({
      userId: userIdByEmail.get(DEMO_LOGINS[2].email)!,
      groupId: groupIds[1]!,
      role: 'seller',
      linkCode: 'DEMO0099',
    });
    const insertedMemberships = await tx
      .insert(memberships)
      .values(membershipValues)
      .returning({ id: memberships.id, groupId: memberships.groupId, role: memberships.role });

    const insertedProducts = await tx
      .insert(products)
      .values(
        DEMO_PRODUCTS.map(([title, description, priceOre], i) => ({
          title,
          description,
          priceOre,
          sku: demoSku(i),
        })),
      )
      .returning({ id: products.id, title: products.title, priceOre: products.priceOre });

    // Orders: every membership sells something; admins sell a little too.
    const orderRows: (typeof orders.$inferInsert)[] = [];
    const lineDrafts: { orderIndex: number; productIndex: number; quantity: number }[][] = [];
    insertedMemberships.forEach((membership) => {
      const count = membership.role === 'admin' ? 2 : 4 + Math.floor(random() * 12);
      for (let i = 0; i < count; i++) {
        const daysAgo = Math.floor(random() * 90);
        const orderedAt = new Date(now.getTime() - daysAgo * 86_400_000 - Math.floor(random() * 10) * 3_600_000);
        const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
          orderIndex: orderRows.length,
          productIndex: Math.floor(random() * insertedProducts.length),
          quantity: 1 + Math.floor(random() * 3),
        }));
        const subtotal = lines.reduce((sum, l) => sum + insertedProducts[l.productIndex]!.priceOre * l.quantity, 0);
        orderRows.push({
          shopifyOrderId: String(DEMO_ORDER_IDS_FROM + orderRows.length),
          orderName: `#${1001 + orderRows.length}`,
          orderedAt,
          shopifyUpdatedAt: orderedAt,
          membershipId: membership.id,
          groupId: membership.groupId,
          refCode: null,
          subtotalOre: subtotal,
          commissionOre: lines.reduce((sum, l) => sum + commissionOre(insertedProducts[l.productIndex]!.priceOre * l.quantity, 2500), 0),
          state: 'paid',
        });
        lineDrafts.push(lines);
      }
    });
    // Inserted in date order so order names rise with time, as in a real shop.
    const order = orderRows.map((_, i) => i).sort((a, b) => orderRows[a]!.orderedAt.getTime() - orderRows[b]!.orderedAt.getTime());
    const sortedOrders = order.map((i, rank) => ({
      ...orderRows[i]!,
      orderName: `#${1001 + rank}`,
      shopifyOrderId: String(DEMO_ORDER_IDS_FROM + rank),
    }));
    const sortedLines = order.map((i) => lineDrafts[i]!);
    const insertedOrders: { id: number }[] = [];
    for (let start = 0; start < sortedOrders.length; start += 200) {
      insertedOrders.push(
        ...(await tx
          .insert(orders)
          .values(sortedOrders.slice(start, start + 200))
          .returning({ id: orders.id })),
      );
    }
    const lineRows = sortedLines.flatMap((lines, i) =>
      lines.map((l, lineIndex) => {
        const product = insertedProducts[l.productIndex]!;
        const amountOre = product.priceOre * l.quantity;
        const o = sortedOrders[i]!;
        return {
          orderId: insertedOrders[i]!.id,
          kind: 'sale' as const,
          shopifyLineId: String(466_157_049 + i * 10 + lineIndex),
          productId: product.id,
          title: product.title,
          quantity: l.quantity,
          amountOre,
          commissionOre: commissionOre(amountOre, 2500),
          groupId: o.groupId!,
          membershipId: o.membershipId!,
          bookedAt: o.orderedAt,
        };
      }),
    );
    for (let start = 0; start < lineRows.length; start += 500) {
      await tx.insert(orderLines).values(lineRows.slice(start, start + 500));
    }

    await seedClassList(tx, { groupId: groupIds[2]!, passwordHash, now });

    // Where each group is paid, one of each kind (made-up numbers that pass Bankgirot's checks).
    await tx.insert(groupPayoutAccounts).values([
      {
        groupId: groupIds[0]!,
        kind: 'bankgiro',
        clearingNumber: null,
        accountNumber: '99912347',
        holderName: 'Björkskolans föräldraförening',
      },
      { groupId: groupIds[1]!, kind: 'plusgiro', clearingNumber: null, accountNumber: '555128', holderName: 'IK Sävedalen' },
      { groupId: groupIds[2]!, kind: 'bank', clearingNumber: '5000', accountNumber: '1234560', holderName: 'Scoutkåren Tallen' },
      { groupId: groupIds[3]!, kind: 'bank', clearingNumber: '6000', accountNumber: '123456789', holderName: 'Ekskolans elevråd' },
    ]);

    // A paid payout that settled the archived class's whole season, and a draft for 6B's first month.
    const periods = [
      {
        groupId: groupIds[3]!,
        from: stockholmDate(new Date(now.getTime() - 100 * 86_400_000)),
        to: stockholmDate(now),
        status: 'paid' as const,
      },
      {
        groupId: groupIds[0]!,
        from: stockholmDate(new Date(now.getTime() - 95 * 86_400_000)),
        to: stockholmDate(new Date(now.getTime() - 60 * 86_400_000)),
        status: 'draft' as const,
      },
    ];
    for (const period of periods) {
      const settlement = await createPayout(tx, {
        groupId: period.groupId,
        from: period.from,
        to: period.to,
        autoArchive: false,
        actorUserId: null,
      });
      if (settlement.created && period.status === 'paid') await markPayoutPaid(tx, { payoutId: settlement.payoutId, actorUserId: null });
    }
    options.log?.info(
      { groups: groupIds.length, users: insertedUsers.length, orders: insertedOrders.length, lines: lineRows.length },
      'demodata skapad',
    );
    return true;
  });
}

/**
 * The demo accounts in this database: the one test of "demo data is here" (the start, the
 * removal, the password renewal). An account is the demo's when it has one of the seed's
 * addresses and still the seed's password hash: the seed hashes the password once and gives
 * every demo account that same hash (one salt), which nobody can register or set. So an account
 * someone registered later at a freed demo address, a real superadmin whose SUPERADMIN_EMAIL
 * happens to be admin@saljportalen.se, and a demo account whose password was changed are not the
 * demo's: their passwords are nobody else's to know.
 */
export async function findDemoAccounts(db: Db | Tx): Promise<{ id: number; email: string; isSuperadmin: boolean }[]> {
  const demoAddress = or(
    inArray(sql`lower(${users.email})`, [...DEMO_EMAILS]),
    inArray(
      sql`lower(${users.username})`,
      DEMO_CLASS_LIST.map((pupil) => pupil.username),
    ),
  );
  const seedHashes = db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(demoAddress)
    .groupBy(users.passwordHash)
    .having(sql`count(*) > 1`);
  return (
    db
      // A demo pupil from a class list is named by the username it has instead of an address.
      .select({ id: users.id, email: sql<string>`coalesce(${users.email}, ${users.username})`, isSuperadmin: users.isSuperadmin })
      .from(users)
      .where(and(demoAddress, isNull(users.erasedAt), inArray(users.passwordHash, seedHashes)))
      .orderBy(users.id)
  );
}

/** True when this database holds demo accounts (findDemoAccounts), seeded now or on an earlier start. */
export async function hasDemoData(db: Db | Tx): Promise<boolean> {
  return (await findDemoAccounts(db)).length > 0;
}

/**
 * Gives every demo account a new password (and ends their sessions): a data dir seeded before
 * the password was generated has the old public one, `demo1234`, and one whose password file is
 * gone has one nobody here can print. Returns how many accounts got it.
 */
export async function renewDemoPassword(db: Db | Tx, password: string): Promise<number> {
  const accounts = await findDemoAccounts(db);
  if (accounts.length === 0) return 0;
  const passwordHash = await hashPassword(password);
  const ids = accounts.map((account) => account.id);
  await db
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, endedSessions: [] })
    .where(inArray(users.id, ids));
  await db.delete(refreshTokens).where(inArray(refreshTokens.userId, ids));
  return ids.length;
}

/**
 * The demo accounts' password, from this data dir's demo-password file. A data dir that keeps
 * none (seeded before the password was generated, when it was the public `demo1234`; or the
 * database moved to PostgreSQL from another data dir) gets a new one: the accounts' hash is
 * replaced and the file written in one transaction, so the file never names a password the
 * accounts do not have.
 */
export async function demoPasswordOf(db: Db, dataDir: string): Promise<{ password: string; renewed: boolean }> {
  const kept = readDemoPassword(dataDir);
  if (kept) return { password: kept, renewed: false };
  const password = generateDemoPassword();
  return db.transaction(async (tx) => {
    // The seed's lock: a second process starting at once finds the first one's file.
    await tx.execute(sql`select pg_advisory_xact_lock(4242)`);
    const other = readDemoPassword(dataDir);
    if (other) return { password: other, renewed: false };
    await renewDemoPassword(tx, password);
    keepDemoPassword(dataDir, password);
    return { password, renewed: true };
  });
}

/**
 * The class-list pupils of DEMO_CLASS_LIST in the scouts, with no sales, each waiting for or
 * approved by a guardian as a roster import and an approval would leave them (issue 31). Every
 * demo account has the seed's password hash (findDemoAccounts), so Ines signs in as 'ines.ob' with
 * the demo password. The invited guardian's code is a random one nobody has: the demo sends no mail.
 */
async function seedClassList(tx: Tx, options: { groupId: number; passwordHash: string; now: Date }) {
  const [guardian] = await tx
    .insert(users)
    .values({ email: DEMO_GUARDIAN.email, fullName: DEMO_GUARDIAN.fullName, passwordHash: options.passwordHash })
    .returning({ id: users.id });
  for (const [index, pupil] of DEMO_CLASS_LIST.entries()) {
    const [user] = await tx
      .insert(users)
      .values({
        username: pupil.username,
        fullName: pupil.fullName,
        passwordHash: options.passwordHash,
        activeGroupId: options.groupId,
        guardianConsent: pupil.guardian === 'approved' ? 'approved' : 'pending',
      })
      .returning({ id: users.id });
    await tx
      .insert(memberships)
      .values({ userId: user!.id, groupId: options.groupId, role: 'seller', linkCode: `DEMOK${String(index + 1).padStart(3, '0')}` });
    if (pupil.guardian === 'approved') {
      await tx.insert(guardianLinks).values({
        childUserId: user!.id,
        guardianUserId: guardian!.id,
        guardianEmail: DEMO_GUARDIAN.email,
        approvedAt: options.now,
      });
    } else if (pupil.guardian === 'invited') {
      await tx.insert(guardianLinks).values({
        childUserId: user!.id,
        guardianEmail: DEMO_INVITED_GUARDIAN,
        codeHash: sha256(randomToken()),
        codeExpiresAt: new Date(options.now.getTime() + 7 * 86_400_000),
      });
    }
  }
}
