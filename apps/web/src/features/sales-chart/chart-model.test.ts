import { describe, expect, it } from 'vitest';
import type { TSalesPerDayResponse, TSalesPerWeekResponse } from '@saljportalen/contract';
import { perDayModel, perWeekModel } from './chart-model';

const kr = (text: string) => `${text.replace(/ /g, '\u00a0')}\u00a0kr`;

const days: TSalesPerDayResponse = {
  group_id: 1,
  from: '2026-11-20',
  to: '2026-11-22',
  ends_on: '2026-11-24',
  goal: 600,
  earlier_sales: 100,
  earlier_commission: 25,
  total_sales: 1100,
  total_commission: 275,
  days: [
    { date: '2026-11-20', sales: 400, commission: 100, orders_count: 2 },
    { date: '2026-11-21', sales: 0, commission: 0, orders_count: 0 },
    { date: '2026-11-22', sales: 600, commission: 150, orders_count: 3 },
  ],
};

describe('the class chart per day', () => {
  it('draws the cumulative commission against the goal, and says so', () => {
    const model = perDayModel(days);
    expect(model.chart.valueLabel).toBe('Intjänat');
    expect(model.chart.goal).toBe(600);
    // Today's total, then nothing drawn up to the goal's end date.
    expect(model.chart.values).toEqual([125, 125, 275, null, null]);
    expect(model.summary).toBe(`${kr('275')} intjänat av målet ${kr('600')} (45 %), ${kr('1 100')} sålt`);
  });

  it('keeps the sales per day in the table, with a commission column', () => {
    const { table } = perDayModel(days);
    expect(table.columns).toEqual(['Datum', 'Sålt', 'Intjänat', 'Ordrar', 'Intjänat hittills']);
    expect(table.rows.map((row) => row.cells)).toEqual([
      ['2026-11-20', kr('400'), kr('100'), '2', kr('125')],
      ['2026-11-22', kr('600'), kr('150'), '3', kr('275')],
    ]);
  });

  it('draws the cumulative sales when the class has no goal', () => {
    const model = perDayModel({ ...days, goal: null, ends_on: null });
    expect(model.chart).toMatchObject({ valueLabel: 'Sålt totalt', goal: null, values: [500, 500, 1100] });
    expect(model.summary).toBe(`${kr('1 100')} sålt sedan 2026-11-20`);
    expect(model.table.columns.at(-1)).toBe('Sålt hittills');
    expect(model.table.rows[1]!.cells).toEqual(['2026-11-22', kr('600'), kr('150'), '3', kr('1 100')]);
  });
});

describe('every group per week', () => {
  it('shows the sales as bars and the commission in the table', () => {
    const weeks: TSalesPerWeekResponse = {
      weeks: [{ week: '2026-W47', starts_on: '2026-11-16', sales: 1234, commission: 308.5, orders_count: 4, groups_count: 2 }],
    };
    const model = perWeekModel(weeks);
    expect(model.chart.values).toEqual([1234]);
    expect(model.table.columns).toEqual(['Vecka', 'Försäljning', 'Intjänat', 'Ordrar', 'Grupper som sålt']);
    expect(model.table.rows[0]!.cells.slice(1)).toEqual([kr('1 234'), kr('309'), '4', '2']);
  });
});
