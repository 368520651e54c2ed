import { describe, expect, it } from 'vitest';
import { readIsAdmin, readList, readSellerRow } from './tolerant-readers';

describe('tolerant readers (spec §3)', () => {
  it('accepts a bare array and every wrapper', () => {
    expect(readList([1, 2])).toEqual([1, 2]);
    for (const key of ['items', 'groups', 'data', 'rows', 'sellers', 'payouts']) {
      expect(readList({ [key]: [{ id: 1 }] })).toEqual([{ id: 1 }]);
    }
    expect(readList({ data: { items: [3] } })).toEqual([3]);
    expect(readList(null)).toEqual([]);
    expect(readList({ nothing: true })).toEqual([]);
  });

  it('detects admins from role, user_role, app_role or is_admin', () => {
    expect(readIsAdmin({ role: 'admin' })).toBe(true);
    expect(readIsAdmin({ user_role: 'admin' })).toBe(true);
    expect(readIsAdmin({ app_role: 'admin' })).toBe(true);
    expect(readIsAdmin({ is_admin: true })).toBe(true);
    expect(readIsAdmin({ role: 'seller' })).toBe(false);
  });

  it('reads alternate names for orders, sales and commission', () => {
    const row = readSellerRow({ id: 7, name: 'Åsa', orders: '3', sales: 450.5, commission_total: 112.63 });
    expect(row).toMatchObject({ user_id: 7, full_name: 'Åsa', orders_count: 3, total_sales: 450.5, total_commission: 112.63 });
  });
});
