import { Td } from '@/components/ui/table';
import { formatDateTime, formatKronor } from '@/lib/format';

/** An order row's date, amount incl. VAT and commission: the same three cells in every admin order list. */
export function OrderAmountCells({ order }: { order: { ordered_at: string; subtotal_incl_vat: number; commission_total: number } }) {
  return (
    <>
      <Td data-label="Datum" className="whitespace-nowrap">
        {formatDateTime(order.ordered_at)}
      </Td>
      <Td data-label="Belopp inkl. moms" className="text-right tabular-nums whitespace-nowrap">
        {formatKronor(order.subtotal_incl_vat)}
      </Td>
      <Td data-label="Provision" className="text-right tabular-nums whitespace-nowrap">
        {formatKronor(order.commission_total)}
      </Td>
    </>
  );
}
