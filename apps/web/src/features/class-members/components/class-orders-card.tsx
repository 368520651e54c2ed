import { useId, useState } from 'react';
import { ArrowRightLeft } from 'lucide-react';
import type { TClassOrder } from '@saljportalen/contract';
import { CLASS_LINK_SELLER_NAME } from '@saljportalen/contract/plain';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate, formatKronor } from '@/lib/format';
import { CLASS_ORDERS_PAGE_SIZE, useClassOrders } from '../api/class-orders';
import { MoveOrderDialog, orderLabel } from './move-order-dialog';

/**
 * The class's sales for its teacher (issue 30 point 5), to move one that was bought through the
 * wrong pupil's link. A sale a payout has taken is Säljportalen's to move, as a correction.
 */
export function ClassOrdersCard({ groupId }: { groupId: number }) {
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const [moving, setMoving] = useState<TClassOrder | null>(null);
  const orders = useClassOrders(groupId, page, open);
  const pages = orders.data ? Math.max(1, Math.ceil(orders.data.total / CLASS_ORDERS_PAGE_SIZE)) : 1;

  let body;
  if (orders.isPending) body = <Skeleton className="h-24 w-full" />;
  else if (orders.isError) body = <Alert tone="error" title="Kunde inte hämta klassens försäljningar." />;
  else if (orders.data.total === 0) body = <p className="text-muted">Klassen har inga försäljningar ännu.</p>;
  else
    body = (
      <>
        <ul aria-labelledby={titleId} aria-busy={orders.isPlaceholderData} className="divide-y divide-slate-200">
          {orders.data.items.map((order) => (
            <li key={order.order_id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
              <div className="min-w-0">
                <p className="font-medium text-ink [overflow-wrap:anywhere]">{order.seller_name ?? CLASS_LINK_SELLER_NAME}</p>
                <p className="text-sm text-muted">
                  {formatDate(order.ordered_at)} · {orderLabel(order)} ·{' '}
                  <span className="tabular-nums">{formatKronor(order.subtotal_incl_vat)}</span>
                </p>
              </div>
              {order.in_payout ? (
                <span className="text-sm text-muted">I en avräkning</span>
              ) : (
                <Button variant="outline" size="sm" onClick={() => setMoving(order)}>
                  <ArrowRightLeft aria-hidden="true" />
                  Flytta<span className="sr-only"> {orderLabel(order)}</span>
                </Button>
              )}
            </li>
          ))}
        </ul>
        {pages > 1 && (
          <nav aria-label="Sidor av klassens försäljningar" className="mt-3 flex items-center justify-between gap-2">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Föregående
            </Button>
            <span className="text-sm text-muted">
              Sida {page} av {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Nästa
            </Button>
          </nav>
        )}
      </>
    );

  return (
    <Card>
      <CardHeader className="space-y-2">
        <CardTitle id={titleId}>Klassens försäljningar</CardTitle>
        <p className="text-sm text-muted">
          Har någon köpt via fel elevs länk? Flytta försäljningen till eleven som sålde, så räknas den för rätt elev. En försäljning som
          redan är avräknad flyttar Säljportalen åt er.
        </p>
      </CardHeader>
      <CardContent>
        <Button variant="outline" size="sm" aria-expanded={open} onClick={() => setOpen(!open)} className="mb-3">
          {open ? 'Dölj försäljningarna' : 'Visa försäljningarna'}
        </Button>
        {open && body}
      </CardContent>
      {moving && <MoveOrderDialog groupId={groupId} order={moving} onClose={() => setMoving(null)} />}
    </Card>
  );
}
