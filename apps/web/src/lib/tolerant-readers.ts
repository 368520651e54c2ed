/**
 * spec §3: admin list answers are accepted under alternative wrappers and field names, and
 * normalised here, so a page reads one shape whatever the server version sends.
 */
const LIST_WRAPPERS = ['items', 'groups', 'data', 'rows', 'sellers', 'payouts', 'orders'] as const;

export function readList<T = Record<string, unknown>>(answer: unknown): T[] {
  if (Array.isArray(answer)) return answer as T[];
  if (answer && typeof answer === 'object') {
    for (const key of LIST_WRAPPERS) {
      const value = (answer as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value as T[];
      if (value && typeof value === 'object') {
        const nested = readList<T>(value);
        if (nested.length > 0) return nested;
      }
    }
  }
  return [];
}

/** The first of several field names that holds a finite number (or a numeric string). */
export function readNumber(row: Record<string, unknown>, ...names: string[]): number {
  for (const name of names) {
    const value = row[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  }
  return 0;
}

export function readString(row: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = row[name];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/** spec §3: admin is detected from role, user_role, app_role or an is_admin flag. */
export function readIsAdmin(row: Record<string, unknown>): boolean {
  if (row.is_admin === true) return true;
  return ['role', 'user_role', 'app_role'].some((name) => row[name] === 'admin');
}

export interface SellerRow {
  user_id: number;
  full_name: string;
  group_id: number | null;
  group_name: string;
  orders_count: number;
  total_sales: number;
  total_commission: number;
  is_admin: boolean;
  is_active: boolean;
}

/** A seller row under any of the tolerated field names (spec §3). */
export function readSellerRow(raw: Record<string, unknown>): SellerRow {
  return {
    user_id: readNumber(raw, 'user_id', 'id', 'userId'),
    full_name: readString(raw, 'full_name', 'name', 'seller_name', 'fullName') ?? 'Okänd',
    group_id: readNumber(raw, 'group_id', 'groupId') || null,
    group_name: readString(raw, 'group_name', 'groupName') ?? '',
    orders_count: readNumber(raw, 'orders_count', 'orders', 'order_count', 'ordersCount'),
    total_sales: readNumber(raw, 'total_sales', 'sales', 'sales_total', 'totalSales'),
    total_commission: readNumber(raw, 'total_commission', 'commission', 'commission_total', 'totalCommission'),
    is_admin: readIsAdmin(raw),
    is_active: raw.is_active !== false,
  };
}
