import type { TSalesPerDayResponse, TSalesPerWeekResponse } from '@saljportalen/contract';
import { formatCount, formatDate, formatDayMonth, formatIsoWeek, formatKronor, roundToOre } from '@/lib/format';

/** What the canvas draws: one value per point, in kronor; null where the campaign has not got to yet. */
export interface ChartModel {
  kind: 'line' | 'bars';
  /** The axis label of each point, already in Swedish. */
  labels: string[];
  values: (number | null)[];
  /** The series' name in the legend. */
  valueLabel: string;
  /** The class goal in kronor, drawn as a line across the chart. */
  goal: number | null;
}

/** The same figures as a table, for screen readers and for 'Visa som tabell'. */
export interface TableModel {
  caption: string;
  columns: string[];
  /** The first cell of each row is its header. */
  rows: { key: string; cells: string[] }[];
  empty: string;
}

export interface SalesChartModel {
  summary: string;
  chart: ChartModel;
  table: TableModel;
}

const nextDay = (date: string): string => {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
};

/**
 * A class's sales over its campaign: what it has sold in all, day by day, against its goal. The
 * axis runs on to the goal's end date when that is still ahead, with nothing drawn after today.
 */
export function perDayModel(data: TSalesPerDayResponse): SalesChartModel {
  const labels: string[] = [];
  const values: (number | null)[] = [];
  const rows: TableModel['rows'] = [];
  let total = data.earlier_sales;
  for (const day of data.days) {
    total = roundToOre(total + day.sales);
    labels.push(formatDayMonth(day.date));
    values.push(total);
    if (day.sales !== 0 || day.orders_count !== 0)
      rows.push({
        key: day.date,
        cells: [formatDate(day.date), formatKronor(day.sales), formatCount(day.orders_count), formatKronor(total)],
      });
  }
  if (data.ends_on && data.ends_on > data.to) {
    for (let day = nextDay(data.to); day <= data.ends_on; day = nextDay(day)) {
      labels.push(formatDayMonth(day));
      values.push(null);
    }
  }
  const sold = formatKronor(data.total_sales);
  const summary =
    data.goal !== null && data.goal > 0
      ? `${sold} av målet ${formatKronor(data.goal)} (${formatCount(Math.floor((data.total_sales / data.goal) * 100))} %)`
      : `${sold} sålt sedan ${formatDate(data.from)}`;
  return {
    summary,
    chart: { kind: 'line', labels, values, valueLabel: 'Sålt totalt', goal: data.goal },
    table: {
      caption: `Försäljning per dag, ${formatDate(data.from)} till ${formatDate(data.to)}`,
      columns: ['Datum', 'Sålt', 'Ordrar', 'Totalt hittills'],
      rows,
      empty: 'Ingen försäljning ännu.',
    },
  };
}

/** Every group's sales per week, as bars. */
export function perWeekModel(data: TSalesPerWeekResponse): SalesChartModel {
  const total = data.weeks.reduce((sum, week) => roundToOre(sum + week.sales), 0);
  return {
    summary: `${formatKronor(total)} de senaste ${formatCount(data.weeks.length)} veckorna`,
    chart: {
      kind: 'bars',
      labels: data.weeks.map((week) => formatIsoWeek(week.week)),
      values: data.weeks.map((week) => week.sales),
      valueLabel: 'Försäljning',
      goal: null,
    },
    table: {
      caption: 'Försäljning per vecka i alla grupper',
      columns: ['Vecka', 'Försäljning', 'Ordrar', 'Grupper som sålt'],
      rows: data.weeks.map((week) => ({
        key: week.week,
        cells: [
          `${formatIsoWeek(week.week, true)} (från ${formatDate(week.starts_on)})`,
          formatKronor(week.sales),
          formatCount(week.orders_count),
          formatCount(week.groups_count),
        ],
      })),
      empty: 'Ingen försäljning.',
    },
  };
}
