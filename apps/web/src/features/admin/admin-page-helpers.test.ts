import { describe, expect, it } from 'vitest';
import { orderLabel, parseId, retryServerFailureOnce } from './admin-page-helpers';
import { ApiError } from '@/lib/api-client';
import { sellerListQuery } from './sellers/api/list-sellers';
import { groupChoice } from './groups/api/list-group-options';

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

describe('orders (spec §2)', () => {
  it('names an order by its name, else the shop id, else our order id', () => {
    expect(orderLabel({ order_id: 5, order_name: '#1001', shopify_order_id: '820982911946154508' })).toBe('#1001');
    // The contract's form of a Shopify id: a string of digits, shown exactly past 2^53.
    expect(orderLabel({ order_id: 3, order_name: null, shopify_order_id: '820982911946154509' })).toBe('820982911946154509');
    expect(orderLabel({ order_id: 2, order_name: null, shopify_order_id: '' })).toBe('2');
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

describe('group pickers', () => {
  it('shows archived groups as the groups list names them', () => {
    expect(groupChoice({ id: 4, name: 'Klass 9A Ekskolan', archived: true })).toEqual({
      value: '4',
      label: 'Klass 9A Ekskolan (Arkiverad)',
    });
    expect(groupChoice({ id: 5, name: 'Åsa IK', archived: false })).toEqual({ value: '5', label: 'Åsa IK' });
  });
});
