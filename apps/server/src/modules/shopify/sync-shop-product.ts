import { and, eq, or, isNull, lt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { products } from '../../db/schema.js';
import { htmlToPlainText } from './plain-text.js';
import { lockShopifyProduct, saveProduct } from './save-product.js';
import type { TShopifyProduct } from '../../lib/shopify-payloads.js';

/** products/create and products/update: the shop is the source of title, text, price, image and status. */
export async function syncShopProduct(tx: Tx, product: TShopifyProduct): Promise<string> {
  await lockShopifyProduct(tx, product.id);
  const skus = [...new Set(product.variants.flatMap((variant) => (variant.sku?.trim() ? [variant.sku.trim()] : [])))];
  const firstPrice = product.variants.find((variant) => variant.price != null)?.price ?? 0;
  const result = await saveProduct(
    tx,
    { shopifyProductId: product.id, skus, title: product.title.trim() },
    {
      title: product.title.trim(),
      description: htmlToPlainText(product.body_html ?? ''),
      priceOre: firstPrice,
      imageUrl: product.image?.src ?? product.images[0]?.src ?? null,
      // Only an active product can be bought; draft and archived ones leave the catalogue.
      active: (product.status ?? 'active') === 'active',
    },
    product.updated_at ? { shopifyUpdatedAt: product.updated_at } : {},
  );
  const what = { created: 'skapad', updated: 'uppdaterad', stale: 'oförändrad (portalen har redan en nyare version)' }[result];
  return `Produkten ${product.title.trim()} ${what}`;
}

/**
 * products/delete: the product leaves the catalogue but stays in the database, since order lines
 * point at it. The time of deletion becomes its version, so a late update cannot revive it.
 */
export async function removeShopProduct(tx: Tx, options: { shopifyProductId: string; deletedAt: Date }): Promise<string> {
  await lockShopifyProduct(tx, options.shopifyProductId);
  const updated = await tx
    .update(products)
    .set({ active: false, shopifyUpdatedAt: options.deletedAt, updatedAt: new Date() })
    .where(
      and(
        eq(products.shopifyProductId, sql`${options.shopifyProductId}::bigint`),
        or(isNull(products.shopifyUpdatedAt), lt(products.shopifyUpdatedAt, options.deletedAt)),
      ),
    )
    .returning({ title: products.title });
  return updated[0]
    ? `Produkten ${updated[0].title} borttagen ur katalogen`
    : `Produkt ${options.shopifyProductId} finns inte i katalogen: inget att ta bort`;
}
