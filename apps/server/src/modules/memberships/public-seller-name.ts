import { firstNameOf } from '../../lib/format.js';
/** What the family chose to show buyers (issue 22 point 7); `users.public_name`. */
export type PublicNameChoice = 'first_name' | 'full_name' | 'alias';

/** What a buyer reads when there is no name to show: a protected pupil, or an alias chosen but not given. */
export const NEUTRAL_SELLER_NAME = 'Anonym säljare';

/** "Elsa Åberg" → "Elsa". */

/**
 * The one name a buyer sees for a seller: on the catalogue, in the share texts and on the link's
 * pages. The first name unless the family chose otherwise; a pupil with protected personal data
 * (skyddade personuppgifter) only ever by alias, whatever was chosen, and never by a real name
 * when no alias is set. The admin area keeps the real name and does not call this.
 */
export function publicSellerName(seller: {
  fullName: string;
  publicName: PublicNameChoice;
  alias: string | null;
  protectedIdentity: boolean;
}): string {
  const alias = seller.alias?.trim() || null;
  if (seller.protectedIdentity) return alias ?? NEUTRAL_SELLER_NAME;
  switch (seller.publicName) {
    case 'full_name':
      return seller.fullName.trim() || NEUTRAL_SELLER_NAME;
    case 'alias':
      return alias ?? NEUTRAL_SELLER_NAME;
    case 'first_name':
      return firstNameOf(seller.fullName) || NEUTRAL_SELLER_NAME;
  }
}
