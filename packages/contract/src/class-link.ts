/**
 * What a class link's code is called in the shop's `?ref=` and on an order (issue 32, decision 073):
 * `KLASS-` and the code, which no personal link code can be (theirs have no hyphen), so the order
 * is read as the class's and no pupil's.
 */
export const CLASS_REF_PREFIX = 'KLASS-';

/** The shop's `ref` of a class link's code. */
export const classShopRef = (classLinkCode: string) => `${CLASS_REF_PREFIX}${classLinkCode}`;

/** Whom an order through the class link counts for, wherever orders are listed by pupil: the payout, the class's orders. */
export const CLASS_LINK_SELLER_NAME = 'Klassen (klasslänken)';
