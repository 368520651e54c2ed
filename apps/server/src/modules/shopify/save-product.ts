import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { products } from '../../db/schema.js';

export interface ProductFields {
  title: string;
  description: string;
  priceOre: number;
  imageUrl: string | null;
  active: boolean;
  /** Left as it is when undefined: only the import sets rates, the shop knows nothing of them. */
  commissionBps?: number | null;
}

export interface ProductIdentity {
  shopifyProductId: string | null;
  skus: string[];
  title: string;
}

/** Advisory-lock namespace of Shopify products (beside the one of orders). */
const PRODUCT_LOCK_NAMESPACE = 6002;

/**
 * The catalogue product a shop product or an import row is about: the same Shopify id, else the
 * same SKU, else the same title, so that products imported from a CSV file without ids are
 * linked to the shop's own when its webhooks arrive. A product already linked to another Shopify
 * id is never taken.
 */
export async function findProduct(db: Db | Tx, identity: ProductIdentity) {
  const free: SQL | undefined = identity.shopifyProductId
    ? or(isNull(products.shopifyProductId), eq(products.shopifyProductId, sql`${identity.shopifyProductId}::bigint`))
    : undefined;
  const attempts: SQL[] = [];
  if (identity.shopifyProductId) attempts.push(eq(products.shopifyProductId, sql`${identity.shopifyProductId}::bigint`));
  if (identity.skus.length)
    attempts.push(
      sql`${products.sku} in (${sql.join(
        identity.skus.map((sku) => sql`${sku}`),
        sql`, `,
      )})`,
    );
  attempts.push(sql`lower(${products.title}) = lower(${identity.title})`);
  for (const match of attempts) {
    const [product] = await db
      .select({ id: products.id, shopifyUpdatedAt: products.shopifyUpdatedAt, sku: products.sku })
      .from(products)
      .where(and(match, free))
      .orderBy(asc(products.id))
      .limit(1);
    if (product) return product;
  }
  return undefined;
}

export async function lockShopifyProduct(tx: Tx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PRODUCT_LOCK_NAMESPACE}::int, hashtext(${key}))`);
}

/**
 * Creates or updates one catalogue product. With `shopifyUpdatedAt`, data older than what is
 * stored is ignored (Shopify may deliver an old update after a newer one). Returns what it did.
 */
export async function saveProduct(
  tx: Tx,
  identity: ProductIdentity,
  fields: ProductFields,
  options: { shopifyUpdatedAt?: Date } = {},
): Promise<'created' | 'updated' | 'stale'> {
  const existing = await findProduct(tx, identity);
  const linked = {
    ...(identity.shopifyProductId ? { shopifyProductId: sql`${identity.shopifyProductId}::bigint` } : {}),
    ...(options.shopifyUpdatedAt ? { shopifyUpdatedAt: options.shopifyUpdatedAt } : {}),
  };
  const commission = fields.commissionBps === undefined ? {} : { commissionBps: fields.commissionBps };
  if (!existing) {
    await tx.insert(products).values({ ...fields, ...commission, ...linked, sku: identity.skus[0] ?? null });
    return 'created';
  }
  if (options.shopifyUpdatedAt && existing.shopifyUpdatedAt && options.shopifyUpdatedAt <= existing.shopifyUpdatedAt) return 'stale';
  await tx
    .update(products)
    .set({ ...fields, ...commission, ...linked, sku: existing.sku ?? identity.skus[0] ?? null, updatedAt: new Date() })
    .where(eq(products.id, existing.id));
  return 'updated';
}
