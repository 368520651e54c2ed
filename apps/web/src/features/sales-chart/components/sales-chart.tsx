import { lazy, Suspense, useId, useState } from 'react';
import { ChartLine, Table2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import type { SalesChartModel, TableModel } from '../chart-model';

// Loaded when a chart is first drawn, never with a page's first paint (decision 043).
const UPlotChart = lazy(() => import('./uplot-chart'));

const CHART_HEIGHT = 200;

/** A plain table for screen readers: no scroll box, so nothing invisible takes keyboard focus. */
function ScreenReaderTable({ table }: { table: TableModel }) {
  if (table.rows.length === 0) return <p>{table.empty}</p>;
  return (
    <table>
      <caption>{table.caption}</caption>
      <thead>
        <tr>
          {table.columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, index) =>
              index === 0 ? (
                <th key={index} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={index}>{cell}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function VisibleTable({ table }: { table: TableModel }) {
  if (table.rows.length === 0) return <p className="rounded-lg border border-line bg-white p-4 text-center text-muted">{table.empty}</p>;
  return (
    <Table label={table.caption}>
      <caption className="sr-only">{table.caption}</caption>
      <THead>
        <Tr>
          {table.columns.map((column, index) => (
            <Th key={column} className={index > 0 ? 'px-2 text-right sm:px-4' : 'px-3 sm:px-4'}>
              {column}
            </Th>
          ))}
        </Tr>
      </THead>
      <TBody>
        {table.rows.map((row) => (
          <Tr key={row.key}>
            {row.cells.map((cell, index) =>
              index === 0 ? (
                <th key={index} scope="row" className="px-3 py-2 font-medium whitespace-nowrap text-ink sm:px-4">
                  {cell}
                </th>
              ) : (
                <Td key={index} className="px-2 py-2 text-right whitespace-nowrap tabular-nums sm:px-4">
                  {cell}
                </Td>
              ),
            )}
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

function Legend({ model }: { model: SalesChartModel }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted" aria-hidden="true">
      <li className="flex items-center gap-2">
        <span className="inline-block h-1 w-5 rounded bg-brand" />
        {model.chart.valueLabel}
      </li>
      {model.chart.goal !== null && (
        <li className="flex items-center gap-2">
          <span className="inline-block w-5 border-t-2 border-dashed border-warning" />
          Mål
        </li>
      )}
    </ul>
  );
}

/**
 * Sales over time as a small chart with its table (issue 20): the canvas is hidden from screen
 * readers, which read the same figures as a table; 'Visa som tabell' shows that table to everyone.
 */
export function SalesChart({
  heading,
  model,
  headingLevel = 'h3',
}: {
  heading: string;
  model: SalesChartModel;
  headingLevel?: 'h2' | 'h3';
}) {
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  const Heading = headingLevel;
  return (
    <div className="space-y-2" data-testid="sales-chart">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading
          id={`${id}-title`}
          className={headingLevel === 'h2' ? 'text-lg font-semibold text-ink' : 'text-base font-semibold text-ink'}
        >
          {heading}
        </Heading>
        <Button variant="outline" size="sm" aria-controls={`${id}-body`} onClick={() => setAsTable((shown) => !shown)}>
          {asTable ? <ChartLine aria-hidden="true" /> : <Table2 aria-hidden="true" />}
          {asTable ? 'Visa som diagram' : 'Visa som tabell'}
        </Button>
      </div>
      <p className="text-sm text-muted">{model.summary}</p>
      <div id={`${id}-body`} className="space-y-2">
        {asTable ? (
          <VisibleTable table={model.table} />
        ) : (
          <>
            <div aria-hidden="true" className="min-h-[200px]">
              <Suspense fallback={<Skeleton className="h-[200px] w-full" />}>
                <UPlotChart chart={model.chart} height={CHART_HEIGHT} />
              </Suspense>
            </div>
            <Legend model={model} />
            <div className="sr-only">
              <ScreenReaderTable table={model.table} />
            </div>
          </>
        )}
      </div>
    </div>
  );
}
