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
  /** The class goal in kronor, drawn as a line across the chart; `values` are then the commission earned. */
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
 * A class's sales over its campaign, day by day, and against its goal what it has earned. A class
 * goal is measured in commission, what the class gets (decisions 038, 042, 043): with a goal the
 * line is the cumulative commission ('Intjänat') under the goal's line ('Mål'); without one it is
 * the cumulative sales. The table has both per day. The axis runs on to the goal's end date when
 * that is still ahead, with nothing drawn after today.
 */
export function perDayModel(data: TSalesPerDayResponse): SalesChartModel {
  const againstGoal = data.goal !== null && data.goal > 0;
  const labels: string[] = [];
  const values: (number | null)[] = [];
  const rows: TableModel['rows'] = [];
  let sold = data.earlier_sales;
  let earned = data.earlier_commission;
  for (const day of data.days) {
    sold = roundToOre(sold + day.sales);
    earned = roundToOre(earned + day.commission);
    const total = againstGoal ? earned : sold;
    labels.push(formatDayMonth(day.date));
    values.push(total);
    if (day.sales !== 0 || day.commission !== 0 || day.orders_count !== 0)
      rows.push({
        key: day.date,
        cells: [
          formatDate(day.date),
          formatKronor(day.sales),
          formatKronor(day.commission),
          formatCount(day.orders_count),
          formatKronor(total),
        ],
      });
  }
  if (data.ends_on && data.ends_on > data.to) {
    for (let day = nextDay(data.to); day <= data.ends_on; day = nextDay(day)) {
      labels.push(formatDayMonth(day));
      values.push(null);
    }
  }
  const summary =
    data.goal !== null && againstGoal
      ? `${formatKronor(data.total_commission)} intjänat av målet ${formatKronor(data.goal)} (${formatCount(
          Math.max(0, Math.floor((data.total_commission / data.goal) * 100)),
        )} %), ${formatKronor(data.total_sales)} sålt`
      : `${formatKronor(data.total_sales)} sålt sedan ${formatDate(data.from)}`;
  return {
    summary,
    chart: {
      kind: 'line',
      labels,
      values,
      valueLabel: againstGoal ? 'Intjänat' : 'Sålt totalt',
      goal: againstGoal ? data.goal : null,
    },
    table: {
      caption: `Försäljning och intjänat per dag, ${formatDate(data.from)} till ${formatDate(data.to)}`,
      columns: ['Datum', 'Sålt', 'Intjänat', 'Ordrar', againstGoal ? 'Intjänat hittills' : 'Sålt hittills'],
      rows,
      empty: 'Ingen försäljning ännu.',
    },
  };
}

/** Every group's sales per week, as bars; the table adds what the groups earned (commission). */
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
      columns: ['Vecka', 'Försäljning', 'Intjänat', 'Ordrar', 'Grupper som sålt'],
      rows: data.weeks.map((week) => ({
        key: week.week,
        cells: [
          `${formatIsoWeek(week.week, true)} (från ${formatDate(week.starts_on)})`,
          formatKronor(week.sales),
          formatKronor(week.commission),
          formatCount(week.orders_count),
          formatCount(week.groups_count),
        ],
      })),
      empty: 'Ingen försäljning.',
    },
  };
}
