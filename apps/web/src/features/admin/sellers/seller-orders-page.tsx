import { useEffect, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { ERASED_SELLER_NAME, type TAdminSellerOrder } from '@saljportalen/contract';
import { MoveOrderDialog } from '@/features/class-members';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, StatCard } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { OrderAmountCells } from '../components/order-amount-cells';
import { formatCount, formatKronor } from '@/lib/format';
import { paths } from '@/lib/paths';
import { notifyFailure, orderLabel, parseId } from '../admin-page-helpers';
import { AdminPager } from '../components/admin-pager';
import { BackLink } from '../components/back-link';
import { LoadingStatus, TableSkeletonRows } from '../components/table-skeleton-rows';
import { useSellerOrders } from './api/list-seller-orders';
import { EraseUserDialog } from './components/erase-user-dialog';
import { LoadError } from '@/components/ui/load-error';

const PAGE_SIZE = 50;
const readOffset = (value: string | null): number => (value && /^\d+$/.test(value) ? Number(value) : 0);

/** spec §2 seller orders: cards for orders, sales and commission, and the order table. */
export function SellerOrdersPage() {
  const params = useParams();
  const groupId = parseId(params.id);
  const userId = parseId(params.userId);
  const [search, setSearch] = useSearchParams();
  const offset = readOffset(search.get('offset'));
  const valid = groupId !== undefined && userId !== undefined;
  const orders = useSellerOrders(valid ? { groupId, userId, limit: PAGE_SIZE, offset } : undefined);
  const [erasing, setErasing] = useState(false);
  const [moving, setMoving] = useState<TAdminSellerOrder | null>(null);

  useEffect(() => {
    if (orders.isError) notifyFailure('Fel vid hämtning av ordrar', orders.error);
  }, [orders.isError, orders.error]);

  // spec §2: a group id that is not a number, or no user id, goes back to the group list.
  if (!valid) return <Navigate to={paths.adminGroups} replace />;

  const data = orders.data;
  const erased = data?.seller.full_name === ERASED_SELLER_NAME;
  const setOffset = (next: number) => {
    const nextSearch = new URLSearchParams(search);
    if (next > 0) nextSearch.set('offset', String(next));
    else nextSearch.delete('offset');
    setSearch(nextSearch);
  };

  return (
    <div className="space-y-6">
      <BackLink to={paths.adminGroup(groupId)}>Tillbaka till gruppen</BackLink>

      {orders.isError ? (
        <>
          <h1 className="text-2xl font-bold text-ink">Ordrar</h1>
          <LoadError title="Fel vid hämtning av ordrar" query={orders} />
        </>
      ) : (
        <>
          {!data ? (
            <>
              <LoadingStatus>Laddar ordrar...</LoadingStatus>
              <div className="space-y-2" aria-hidden="true">
                <Skeleton className="h-8 w-56" />
                <Skeleton className="h-5 w-72" />
              </div>
            </>
          ) : (
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div>
                <div className="flex flex-wrap items-center gap-3">
                  <h1 className="text-2xl font-bold text-ink">{data.seller.full_name || 'Säljare'}</h1>
                  {data.seller.is_admin && <Badge variant="brand">Admin</Badge>}
                </div>
                {/* An erased account's address is a placeholder nobody reads (issue 22). */}
                <p className="mt-1 text-muted">
                  {[data.seller.group_name, erased ? undefined : data.seller.email].filter(Boolean).join(' · ')}
                </p>
              </div>
              {!erased && (
                <>
                  <Button variant="outline" className="border-danger text-danger" onClick={() => setErasing(true)}>
                    Radera konto
                  </Button>
                  <EraseUserDialog open={erasing} onOpenChange={setErasing} userId={userId} fullName={data.seller.full_name} />
                </>
              )}
            </div>
          )}

          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            {data ? (
              <>
                <StatCard label="Ordrar" value={formatCount(data.seller.orders_count)} />
                <StatCard label="Försäljning" value={formatKronor(data.seller.total_sales)} />
                <StatCard label="Provision" value={formatKronor(data.seller.total_commission)} />
              </>
            ) : (
              Array.from({ length: 3 }, (_, index) => (
                <Card key={index} className="p-4" aria-hidden="true">
                  <Skeleton className="h-4 w-24" />
                  <Skeleton className="mt-3 h-7 w-20" />
                </Card>
              ))
            )}
          </div>

          <section aria-labelledby="seller-orders" className="space-y-3">
            <h2 id="seller-orders" className="text-lg font-semibold text-ink">
              Ordrar
            </h2>
            {data && data.items.length === 0 ? (
              <p className="rounded-xl border border-line bg-white p-6 text-center text-muted">Inga ordrar.</p>
            ) : (
              <Table cards label="Säljarens ordrar" aria-busy={!data}>
                <caption className="sr-only">Säljarens ordrar, nyaste först</caption>
                <THead>
                  <Tr>
                    <Th>Order</Th>
                    <Th>Datum</Th>
                    <Th className="text-right">Belopp inkl. moms</Th>
                    <Th className="text-right">Provision</Th>
                    <Th>
                      <span className="sr-only">Flytta</span>
                    </Th>
                  </Tr>
                </THead>
                <TBody>
                  {!data ? (
                    <TableSkeletonRows rows={3} columns={5} />
                  ) : (
                    data.items.map((order) => (
                      <Tr key={order.order_id}>
                        <Td className="font-medium">{orderLabel(order)}</Td>
                        <OrderAmountCells order={order} />
                        <Td data-wide className="text-right">
                          {/* A superadmin moves any order of the class, one a payout has taken by a correction (issue 30 point 5). */}
                          <Button variant="outline" size="sm" onClick={() => setMoving(order)}>
                            Flytta<span className="sr-only"> {orderLabel(order)}</span>
                          </Button>
                        </Td>
                      </Tr>
                    ))
                  )}
                </TBody>
              </Table>
            )}
            {data && (
              <AdminPager label="Sidor i orderlistan" offset={offset} limit={PAGE_SIZE} total={data.total} onOffsetChange={setOffset} />
            )}
          </section>
        </>
      )}
      {moving && data && (
        <MoveOrderDialog
          groupId={moving.group_id}
          order={{ ...moving, order_name: orderLabel(moving), membership_id: null, seller_name: data.seller.full_name, user_id: userId }}
          onClose={() => setMoving(null)}
        />
      )}
    </div>
  );
}
