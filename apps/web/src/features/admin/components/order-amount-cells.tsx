import { KronorTd, Td } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';

/** An order row's date, amount incl. VAT and commission: the same three cells in every admin order list. */
export function OrderAmountCells({ order }: { order: { ordered_at: string; subtotal_incl_vat: number; commission_total: number } }) {
  return (
    <>
      <Td data-label="Datum" className="whitespace-nowrap">
        {formatDateTime(order.ordered_at)}
      </Td>
      <KronorTd data-label="Belopp inkl. moms" kronor={order.subtotal_incl_vat} />
      <KronorTd data-label="Provision" kronor={order.commission_total} />
    </>
  );
}
