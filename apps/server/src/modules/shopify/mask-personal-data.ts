/**
 * Buyers' personal data, masked for the superadmin's webhook viewer (issue 21): the operator sees
 * what an event was about (topic, order name, lines, amounts, the personal link code) but never who
 * bought it. Like Dub's API-log viewer, each word keeps its first character: `Anna Svensson` →
 * `A*** S***`, `anna@exempel.se` → `a***@e***.se`, `070-123 45 67` → `0***67`.
 *
 * The JSON is walked generically, not by a list of Shopify's paths, so a field Shopify adds to a
 * customer or an address is masked too:
 * - everything inside a personal container (`customer`, `billing_address`, `shipping_address`,
 *   `default_address`, `addresses`, `client_details`…) except ids, flags and timestamps;
 * - any value under a personal key (`first_name`, `email`, `phone`, `address1`, `zip`, `note`…),
 *   wherever it sits, and `name` beside one of them (a person, not a product or an order);
 * - any string anywhere that contains something shaped like an e-mail address or a phone number.
 */

/** Keys whose whole value belongs to a person: masked wherever they are. */
const PERSONAL_KEYS = new Set([
  'first_name',
  'last_name',
  'email',
  'contact_email',
  'customer_email',
  'phone',
  'customer_phone',
  'address1',
  'address2',
  'city',
  'zip',
  'company',
  'latitude',
  'longitude',
  'browser_ip',
  'note',
  'buyer_accepts_marketing_updated_at',
]);

/** Keys whose every value is a person's (a customer, an address). */
const PERSONAL_CONTAINERS = new Set([
  'customer',
  'billing_address',
  'shipping_address',
  'default_address',
  'addresses',
  'client_details',
  'destination',
  'origin_address',
  'email_marketing_consent',
  'sms_marketing_consent',
]);

/**
 * Keys that mark the object they sit in as a person, so its `name` is a person's name. Not `email`
 * or `phone`: an order has both, and its `name` is `#1001`.
 */
const PERSON_MARKERS = ['first_name', 'last_name', 'address1'];

/** Inside a personal container these stay: they identify the record, not the person. */
const KEPT_IN_CONTAINERS = new Set([
  'id',
  'customer_id',
  'admin_graphql_api_id',
  'created_at',
  'updated_at',
  'currency',
  'state',
  'default',
]);

const EMAIL = /[^\s<>"'@,;:()[\]]+@[^\s<>"'@,;:()[\]]+/g;
/** A phone number: `+` or a leading 0, then at least seven digits with spaces, dashes or brackets between. */
const PHONE = /(?:\+|\b0)[\d(][\d\s().-]{5,}\d/g;

const maskWord = (word: string): string => {
  const first = Array.from(word)[0];
  return first === undefined ? '' : `${first}***`;
};

/** `anna.svensson@exempel.se` → `a***@e***.se` */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${maskWord(address.slice(0, at))}@${maskWord(dot > 0 ? domain.slice(0, dot) : domain)}${tld}`;
}

/** `070-123 45 67` → `0***67`: enough to tell two numbers apart, not to call one. */
export function maskPhone(number: string): string {
  const digits = number.replace(/\D/g, '');
  return `${number.startsWith('+') ? '+' : ''}${digits.slice(0, 1)}***${digits.slice(-2)}`;
}

/** Every word of a name or an address keeps its first character: `Storgatan 12` → `S*** 1***`. */
export function maskText(text: string): string {
  if (PHONE_ONLY.test(text) && text.replace(/\D/g, '').length >= 7) return maskPhone(text);
  return text
    .split(/(\s+)/)
    .map((part) => (/^\s*$/.test(part) ? part : EMAIL_ONLY.test(part) ? maskEmail(part) : maskWord(part)))
    .join('');
}
const EMAIL_ONLY = /^[^\s<>"'@,;:()[\]]+@[^\s<>"'@,;:()[\]]+$/;
const PHONE_ONLY = /^\+?[\d\s().-]+$/;

/** A free text (an error, an outcome) with every e-mail address and phone number in it masked. */
export function maskContactsInText(text: string): string {
  return text.replace(EMAIL, maskEmail).replace(PHONE, maskPhone);
}

function maskLeaf(value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? value : maskText(value);
  if (typeof value === 'number') return '***';
  return value;
}

/** Everything a person is in a value: strings and numbers masked, structure, ids and flags kept. */
function maskWhole(value: unknown, key?: string): unknown {
  if (key !== undefined && KEPT_IN_CONTAINERS.has(key)) return value;
  if (Array.isArray(value)) return value.map((item) => maskWhole(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([childKey, child]) => [childKey, maskWhole(child, childKey)]));
  }
  return typeof value === 'boolean' || value === null ? value : maskLeaf(value);
}

/** A copy of a parsed JSON value with buyers' personal data masked; the value itself is not changed. */
export function maskPersonalData(value: unknown): unknown {
  if (typeof value === 'string') return maskContactsInText(value);
  if (Array.isArray(value)) return value.map(maskPersonalData);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const isPerson = entries.some(([key]) => PERSON_MARKERS.includes(key));
  return Object.fromEntries(
    entries.map(([key, child]) => {
      if (PERSONAL_CONTAINERS.has(key)) return [key, maskWhole(child)];
      if (PERSONAL_KEYS.has(key) || (isPerson && key === 'name')) return [key, maskWhole(child)];
      return [key, maskPersonalData(child)];
    }),
  );
}
