import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { UserPlus } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { OrderAmountCells } from '../components/order-amount-cells';
import { paths } from '@/lib/paths';
import { notifyFailure, orderLabel, readOffset } from '../admin-page-helpers';
import { AdminPager } from '../components/admin-pager';
import { BackLink } from '../components/back-link';
import { LoadingStatus, TableSkeletonRows } from '../components/table-skeleton-rows';
import { UNATTRIBUTED_PAGE_SIZE, useUnattributedOrders, type UnattributedOrder } from './api/list-unattributed-orders';
import { AssignOrderDialog } from './components/assign-order-dialog';
import { LoadError } from '@/components/ui/load-error';
import { genitive } from '@/lib/format';

/** Shopify's states an admin should notice before giving the order to someone. */
const STATE_LABELS: Record<string, string> = {
  cancelled: 'Makulerad',
  refunded: 'Återbetald',
  partially_refunded: 'Delvis återbetald',
};

/**
 * Orders that carried no known personal link code: nobody's sales until a superadmin gives each
 * to the seller it belongs to (newest first, a page at a time).
 */
export function UnattributedOrdersPage() {
  const [params, setParams] = useSearchParams();
  const offset = readOffset(params.get('offset'));
  const orders = useUnattributedOrders(offset);
  const [assigning, setAssigning] = useState<UnattributedOrder | undefined>();

  useEffect(() => {
    if (orders.isError) notifyFailure('Fel vid hämtning av ordrar', orders.error);
  }, [orders.isError, orders.error]);

  // A page past the end (the last order on it was just assigned) gives way to the one before.
  const data = orders.data;
  const pastEnd = offset > 0 && !orders.isPlaceholderData && data !== undefined && data.items.length === 0;
  useEffect(() => {
    if (!pastEnd || !data) return;
    const last = Math.max(0, Math.floor((data.total - 1) / UNATTRIBUTED_PAGE_SIZE) * UNATTRIBUTED_PAGE_SIZE);
    setParams(last > 0 ? { offset: String(last) } : {}, { replace: true });
  }, [pastEnd, data, setParams]);

  return (
    <div className="space-y-6">
      <BackLink to={paths.admin}>Till översikten</BackLink>
      <div className="space-y-1">
        <h1 className="text-2xl font-bold text-ink">Ordrar utan säljare</h1>
        <p className="max-w-prose text-muted">
          Ordrar som inte kunde kopplas till någon säljares personliga länk. Tilldela en order till rätt säljare, så räknas den in i
          säljarens och gruppens försäljning.
        </p>
      </div>

      {orders.isError ? (
        <LoadError title="Fel vid hämtning av ordrar" query={orders} retryWhileFetching={false} />
      ) : data && data.total === 0 ? (
        <p className="rounded-xl border border-line bg-white p-6 text-center text-muted" role="status">
          Inga ordrar utan säljare.
        </p>
      ) : (
        <>
          {!data && <LoadingStatus>Laddar ordrar...</LoadingStatus>}
          <Table
            cards
            label="Ordrar utan säljare"
            aria-busy={!data || orders.isPlaceholderData}
            className={orders.isPlaceholderData ? 'opacity-60' : undefined}
          >
            <caption className="sr-only">Ordrar utan säljare, nyaste först</caption>
            <THead>
              <Tr>
                <Th>Order</Th>
                <Th>Datum</Th>
                <Th className="text-right">Belopp inkl. moms</Th>
                <Th className="text-right">Provision</Th>
                <Th>Okänd kod</Th>
                <Th>
                  <span className="sr-only">Tilldela</span>
                </Th>
              </Tr>
            </THead>
            <TBody>
              {!data ? (
                <TableSkeletonRows rows={5} columns={6} />
              ) : (
                data.items.map((order) => (
                  <Tr key={order.order_id}>
                    <Td>
                      <div className="flex flex-wrap items-center gap-2 whitespace-nowrap">
                        <span className="font-semibold text-ink">{orderLabel(order)}</span>
                        {STATE_LABELS[order.state] && <Badge variant="warning">{STATE_LABELS[order.state]}</Badge>}
                      </div>
                    </Td>
                    <OrderAmountCells order={order} />
                    <Td data-label="Okänd kod" className="font-mono">
                      {order.ref_code ?? <span className="font-sans text-muted">–</span>}
                      {order.archived_link && (
                        <span className="block font-sans text-xs text-muted">
                          {genitive(order.archived_link.seller_name)} länk i {order.archived_link.group_name} (arkiverad)
                        </span>
                      )}
                    </Td>
                    <Td data-wide className="text-right">
                      <Button variant="outline" size="sm" onClick={() => setAssigning(order)}>
                        <UserPlus aria-hidden="true" />
                        Tilldela<span className="sr-only"> order {orderLabel(order)}</span>
                      </Button>
                    </Td>
                  </Tr>
                ))
              )}
            </TBody>
          </Table>
          {data && (
            <AdminPager
              label="Sidor i listan över ordrar utan säljare"
              offset={offset}
              limit={UNATTRIBUTED_PAGE_SIZE}
              total={data.total}
              onOffsetChange={(next) => setParams(next > 0 ? { offset: String(next) } : {})}
            />
          )}
        </>
      )}

      <AssignOrderDialog order={assigning} onClose={() => setAssigning(undefined)} />
    </div>
  );
}
