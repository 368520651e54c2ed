import { stringify } from 'csv-stringify/sync';
import type { TPayout } from '@saljportalen/contract';
import { sekToOre } from '../../lib/money.js';
import { neutraliseFormulas, oreAsDecimalComma } from '../groups/export-group-csv.js';
import { PAYOUT_STATUS_LABEL } from './render-payout-pdf.js';

/**
 * The payouts list as Swedish Excel reads it (the group export's dialect): exact commission, its
 * öresavrundning and 'Att betala' in whole kronor, the same three figures the PDF ends with.
 */
export function payoutsCsv(payouts: TPayout[]): string {
  const money = (sek: number) => oreAsDecimalComma(sekToOre(sek));
  return stringify(
    payouts.map((payout) => [
      payout.id,
      neutraliseFormulas(payout.group_name),
      payout.period_from,
      payout.period_to,
      payout.orders_count,
      payout.lines_count,
      money(payout.total_sales),
      money(payout.total_commission),
      money(payout.rounding),
      money(payout.amount_to_pay),
      PAYOUT_STATUS_LABEL[payout.status],
    ]),
    {
      bom: true,
      delimiter: ';',
      record_delimiter: 'windows',
      quote_record_delimiter: true,
      header: true,
      columns: [
        'Avräkning',
        'Grupp',
        'Från',
        'Till',
        'Ordrar',
        'Orderrader',
        'Försäljning inkl. moms (kr)',
        'Provision (kr)',
        'Öresavrundning (kr)',
        'Att betala (kr)',
        'Status',
      ],
    },
  );
}
