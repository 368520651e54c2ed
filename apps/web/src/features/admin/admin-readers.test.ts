import { describe, expect, it } from 'vitest';
import type { TAdminGroupDetailResponse } from '@saljportalen/contract';
import { parseId, retryServerFailureOnce } from './admin-page-helpers';
import { ApiError } from '@/lib/api-client';
import { readGroupList, readGroupRow } from './groups/api/list-groups';
import { readGroupDetail } from './groups/api/get-group-detail';
import { readSellerList, sellerListQuery } from './sellers/api/list-sellers';
import { readSellerOrders } from './sellers/api/list-seller-orders';
import { readUnattributedOrders } from './orders/api/list-unattributed-orders';
import { groupChoice } from './groups/api/list-group-options';

describe('admin list answers (spec §3 tolerant readers)', () => {
  it('reads groups from the contract shape and from alternative wrappers and names', () => {
    const contract = {
      items: [
        {
          id: 1,
          name: 'Klass 6B',
          code: 'BJK6B2',
          archived: false,
          created_at: '2026-01-01T00:00:00Z',
          sellers_count: 3,
          total_sales: 100.5,
          total_commission: 25.13,
          goal: null,
        },
      ],
      total: 7,
      limit: 50,
      offset: 0,
    };
    expect(readGroupList(contract)).toEqual({ items: [contract.items[0]], total: 7 });
    expect(
      readGroupList({ groups: [{ group_id: '4', group_name: 'Scout', group_code: 'SCT482', status: 'archived', sales: '12.5' }] }).items[0],
    ).toMatchObject({
      id: 4,
      name: 'Scout',
      code: 'SCT482',
      archived: true,
      total_sales: 12.5,
    });
    // A bare array has no total: all of it is the list.
    expect(readGroupList([{ id: 1 }, { id: 2 }]).total).toBe(2);
    expect(readGroupRow({}).archived).toBe(false);
  });

  it('sorts the group detail people by sales, highest first, and keeps the admin flag', () => {
    const answer = {
      group: { id: 1, name: 'G', code: 'C', archived: false, created_at: '', sellers_count: 2, total_sales: 300, total_commission: 75 },
      totals: { total_sales: 300, total_commission: 75, orders_count: 4, sellers_count: 2 },
      sellers: [
        { user_id: 1, full_name: 'Låg', total_sales: 100, role: 'seller' },
        { user_id: 2, full_name: 'Hög', sales: 200, user_role: 'admin', email: 'hog@demo.se' },
      ],
    } as unknown as TAdminGroupDetailResponse;
    const detail = readGroupDetail(answer);
    expect(detail.sellers.map((person) => [person.full_name, person.is_admin, person.email])).toEqual([
      ['Hög', true, 'hog@demo.se'],
      ['Låg', false, undefined],
    ]);
    expect(detail.totals).toEqual({ total_sales: 300, total_commission: 75, orders_count: 4, sellers_count: 2 });
    // Without a page, the answer holds everyone.
    expect(detail.sellersTotal).toBe(2);
  });

  it('counts the people of every page of the group detail, not only the shown one', () => {
    const answer = {
      group: { id: 1, name: 'G', code: 'C', archived: false, created_at: '', sellers_count: 120, total_sales: 0, total_commission: 0 },
      totals: { total_sales: 0, total_commission: 0, orders_count: 0, sellers_count: 120 },
      sellers: [{ user_id: 1, full_name: 'Ett', total_sales: 0, role: 'seller' }],
      sellers_page: { total: 120, limit: 50, offset: 100 },
    } as unknown as TAdminGroupDetailResponse;
    expect(readGroupDetail(answer)).toMatchObject({ sellersTotal: 120, totals: { sellers_count: 120 } });
  });

  it('reads sellers as an array or under {items}', () => {
    expect(readSellerList([{ user_id: 3, full_name: 'Elsa', orders: 2 }]).items[0]).toMatchObject({ user_id: 3, orders_count: 2 });
    expect(readSellerList({ items: [{ user_id: 3 }], total: 40 }).total).toBe(40);
  });
});

describe('sellers query (spec §7)', () => {
  it('maps the sort option and sends a group either as a status or as an id', () => {
    expect(sellerListQuery({ group: 'archived', sort: 'commission', limit: 50, offset: 0 })).toMatchObject({
      status: 'archived',
      group_id: undefined,
      sort: 'total_commission',
    });
    expect(sellerListQuery({ group: 12, sort: 'orders', from: '2026-01-01', to: '', limit: 50, offset: 50 })).toMatchObject({
      status: 'all',
      group_id: 12,
      sort: 'orders_count',
      from: '2026-01-01',
      to: undefined,
      offset: 50,
    });
    expect(sellerListQuery({ group: 'all', sort: 'sales', limit: 50, offset: 0 }).sort).toBe('total_sales');
  });
});

describe('seller orders (spec §2)', () => {
  it('takes the cards from the seller summary', () => {
    const orders = readSellerOrders({
      seller: { full_name: 'Elsa', role: 'admin', is_admin: true, orders_count: 9, total_sales: 1000, total_commission: 250 },
      items: [
        {
          order_id: 5,
          shopify_order_id: '820982911946154508',
          order_name: '#1001',
          ordered_at: '2026-05-01T10:00:00Z',
          subtotal_incl_vat: 10,
          commission_total: 2.5,
        },
      ],
      total: 9,
    });
    expect(orders.figures).toEqual({ orders_count: 9, total_sales: 1000, total_commission: 250 });
    expect(orders.seller.is_admin).toBe(true);
    expect(orders.items[0]!.label).toBe('#1001');
  });

  it('falls back to sums over the orders, rounded to two decimals, and to the shop id or order id as the name', () => {
    const orders = readSellerOrders([
      {
        order_id: 1,
        shopify_order_id: 555,
        order_name: null,
        created_at: '2026-05-01T10:00:00Z',
        subtotal_incl_vat: 0.1,
        commission_total: 0.025,
      },
      { order_id: 2, order_name: null, ordered_at: '2026-05-02T10:00:00Z', subtotal_incl_vat: 0.2, commission_total: 0.05 },
      // The contract's form: a string of digits, shown exactly past 2^53.
      { order_id: 3, shopify_order_id: '820982911946154509', order_name: null, subtotal_incl_vat: 0, commission_total: 0 },
    ]);
    expect(orders.figures).toEqual({ orders_count: 3, total_sales: 0.3, total_commission: 0.08 });
    expect(orders.items.map((order) => order.label)).toEqual(['555', '2', '820982911946154509']);
    expect(orders.items[0]!.ordered_at).toBe('2026-05-01T10:00:00Z');
  });
});

describe('route ids and retries', () => {
  it('accepts only positive whole numbers as ids', () => {
    expect(parseId('12')).toBe(12);
    for (const value of [undefined, '', '0', 'abc', '1.5', '-3', '99999999999']) expect(parseId(value)).toBeUndefined();
  });

  it('retries a server failure once, never a refusal or a missing group', () => {
    expect(retryServerFailureOnce(0, new ApiError(500, 'x'))).toBe(true);
    expect(retryServerFailureOnce(1, new ApiError(500, 'x'))).toBe(false);
    expect(retryServerFailureOnce(0, new ApiError(404, 'Grupp hittades inte'))).toBe(false);
    expect(retryServerFailureOnce(0, new TypeError('Failed to fetch'))).toBe(true);
  });
});

describe('orders without a seller', () => {
  it('reads the page with the order label of spec §2 (name, else shop id, else order id) and the exact total', () => {
    const answer = {
      items: [
        {
          order_id: 7,
          shopify_order_id: '7600000000001',
          order_name: '#1001',
          ordered_at: '2026-03-01T09:00:00Z',
          subtotal_incl_vat: 500,
          commission_total: 125,
          state: 'paid',
          ref_code: 'OKAND1',
        },
        {
          order_id: 8,
          shopify_order_id: '7600000000002',
          order_name: null,
          ordered_at: '2026-03-02T09:00:00Z',
          subtotal_incl_vat: 120,
          commission_total: 30,
          state: 'cancelled',
          ref_code: null,
        },
      ],
      total: 51,
      page: 1,
      page_size: 50,
    };
    const orders = readUnattributedOrders(answer);
    expect(orders.total).toBe(51);
    expect(orders.items.map((order) => [order.order_id, order.label, order.subtotal_incl_vat, order.ref_code])).toEqual([
      [7, '#1001', 500, 'OKAND1'],
      [8, '7600000000002', 120, undefined],
    ]);
    expect(readUnattributedOrders([{ id: 9, amount: 10 }])).toMatchObject({
      total: 1,
      items: [{ order_id: 9, label: '9', subtotal_incl_vat: 10 }],
    });
  });

  it('shows archived groups as the groups list names them', () => {
    expect(groupChoice({ id: 4, name: 'Klass 9A Ekskolan', archived: true })).toEqual({
      value: '4',
      label: 'Klass 9A Ekskolan (Arkiverad)',
    });
    expect(groupChoice({ id: 5, name: 'Åsa IK', archived: false })).toEqual({ value: '5', label: 'Åsa IK' });
  });
});
