import { eq } from 'drizzle-orm';
import { catalogFileName } from '@saljportalen/contract';
import type { Db } from '../../db/client.js';
import { products, users } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import type { AuthUser } from '../../lib/current-user.js';
import { loadActiveMembership, personalLink } from '../memberships/active-membership.js';
import { publicSellerName } from '../memberships/public-seller-name.js';
import { loadProductImage, type ProductImageLog } from './load-product-image.js';
import { renderCatalogPdf } from './render-catalog-pdf.js';

const swedishTitles = new Intl.Collator('sv-SE');

/** The personal catalogue of the user's active group: the PDF and the file name to save it as. */
export async function createSellerCatalog(
  db: Db,
  options: { user: AuthUser; publicUrl: string; dataDir: string; log: ProductImageLog; now?: Date },
): Promise<{ pdf: Buffer; fileName: string }> {
  const membership = await loadActiveMembership(db, options.user);
  if (!membership) throw notFound('Du är inte med i någon grupp, så det finns ingen personlig katalog att hämta');
  // The catalogue carries the personal link, which is not active until a guardian approves (issue 22).
  const [consent] = await db.select({ guardianConsent: users.guardianConsent }).from(users).where(eq(users.id, options.user.id));
  if (consent?.guardianConsent === 'pending') {
    throw forbidden('Katalogen går att hämta när en vårdnadshavare har godkänt kontot.');
  }

  const [chosen] = await db.select({ publicName: users.publicName, alias: users.alias }).from(users).where(eq(users.id, options.user.id));
  // The paper goes to neighbours and strangers: the name as the family chose it (decision 037).
  const sellerName = publicSellerName({
    fullName: options.user.fullName,
    publicName: chosen?.publicName ?? 'first_name',
    alias: chosen?.alias ?? null,
    protectedIdentity: membership.protectedIdentity,
  });

  const activeProducts = await db
    .select({
      id: products.id,
      title: products.title,
      description: products.description,
      priceOre: products.priceOre,
      imageUrl: products.imageUrl,
    })
    .from(products)
    .where(eq(products.active, true));
  activeProducts.sort((a, b) => swedishTitles.compare(a.title, b.title));

  const pdf = await renderCatalogPdf({
    sellerName,
    goalPurpose: membership.group.goalPurpose,
    personalLink: personalLink(options.publicUrl, membership.linkCode),
    createdAt: options.now ?? new Date(),
    products: await Promise.all(
      activeProducts.map(async (product) => ({
        title: product.title,
        description: product.description,
        priceOre: product.priceOre,
        image: await loadProductImage(product.imageUrl, {
          dataDir: options.dataDir,
          report: { productId: product.id, log: options.log },
        }),
      })),
    ),
  });
  return { pdf, fileName: catalogFileName(sellerName) };
}
