import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TBody, THead, Td, Th, Tr } from '@/components/ui/table';
import { formatCount, formatKronor } from '@/lib/format';
import type { TPayout } from '@saljportalen/contract';
import { PayoutActions, payoutPeriod, toPay } from './payout-actions';

const SKELETON_ROWS = 3;

/** A payout whose deductions are more than its commission pays nothing: the class pays back (issue 30 point 4). */
function OwedBack({ payout }: { payout: TPayout }) {
  if (payout.amount_to_pay >= 0) return null;
  return <span className="block text-xs font-normal text-muted">att få tillbaka {toPay(payout).amount}</span>;
}

export function PayoutStatusBadge({ status }: { status: TPayout['status'] }) {
  return status === 'paid' ? <Badge variant="success">Betald</Badge> : <Badge variant="warning">Utkast</Badge>;
}

/**
 * spec §2 list: group, period, orders, commission, status and actions. A table from tablet
 * width up; on a phone every payout is a card, so its buttons need no sideways scrolling.
 */
export function PayoutsList({ payouts }: { payouts: TPayout[] }) {
  return (
    <>
      <ul className="space-y-3 md:hidden">
        {payouts.map((payout) => (
          <li key={payout.id} className="rounded-xl border border-line bg-white p-4">
            <div className="flex items-start justify-between gap-3">
              <div>
                <p className="font-semibold text-ink">{payout.group_name}</p>
                <p className="text-sm text-muted">
                  <span>Nr {payout.id}</span> · {payoutPeriod(payout)}
                </p>
              </div>
              <PayoutStatusBadge status={payout.status} />
            </div>
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
              <div>
                <dt className="text-muted">Ordrar</dt>
                <dd className="font-semibold tabular-nums">{formatCount(payout.orders_count)}</dd>
              </div>
              <div>
                <dt className="text-muted">Provision</dt>
                <dd className="font-semibold tabular-nums">
                  {formatKronor(payout.amount_to_pay)}
                  <OwedBack payout={payout} />
                </dd>
              </div>
            </dl>
            <div className="mt-3">
              <PayoutActions payout={payout} />
            </div>
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        <Table>
          <THead>
            <Tr>
              <Th>Grupp</Th>
              <Th>Period</Th>
              <Th className="text-right">Ordrar</Th>
              <Th className="text-right">Provision</Th>
              <Th>Status</Th>
              <Th>
                <span className="sr-only">Åtgärder</span>
              </Th>
            </Tr>
          </THead>
          <TBody>
            {payouts.map((payout) => (
              <Tr key={payout.id}>
                <Th scope="row" className="font-medium text-ink">
                  {payout.group_name}
                  <span className="block text-xs font-normal text-muted">Nr {payout.id}</span>
                </Th>
                <Td className="whitespace-nowrap tabular-nums">{payoutPeriod(payout)}</Td>
                <Td className="text-right tabular-nums">{formatCount(payout.orders_count)}</Td>
                <Td className="whitespace-nowrap text-right font-semibold tabular-nums">
                  {formatKronor(payout.amount_to_pay)}
                  <OwedBack payout={payout} />
                </Td>
                <Td>
                  <PayoutStatusBadge status={payout.status} />
                </Td>
                <Td>
                  <PayoutActions payout={payout} />
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </div>
    </>
  );
}

/** Three rows of placeholders while the list loads, in the shape of the list itself. */
export function PayoutsListSkeleton() {
  return (
    <div className="space-y-3" aria-hidden="true">
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <Skeleton key={i} className="h-20 w-full md:h-14" />
      ))}
    </div>
  );
}
