import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatKronor } from '@/lib/format';
import type { ChartModel } from '../chart-model';

/**
 * The canvas, loaded on its own when a chart is first shown (decision 043): uPlot stays out of
 * the JavaScript /login and /dashboard need for their first paint. The x axis is the points'
 * index, labelled with their Swedish dates, so no time zone of the browser moves a day. Colours
 * are the design system's, each line at least 3:1 against white (WCAG 1.4.11).
 */
const BRAND = '#065f46';
const BRAND_FILL = 'rgba(6, 95, 70, 0.14)';
const GOAL = '#b45309';
const AXIS = '#475569';
const GRID = '#e2e8f0';
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

/** About one label per 72 px, evenly spaced, always the first and the last point. */
function xSplits(count: number, width: number): number[] {
  if (count <= 1) return [0];
  const wanted = Math.max(2, Math.min(count, Math.floor(width / 72)));
  const step = Math.ceil((count - 1) / (wanted - 1));
  const splits: number[] = [];
  for (let index = 0; index < count - 1; index += step) splits.push(index);
  // The last point gets its label; a label too close before it gives way.
  if (splits.length > 1 && count - 1 - splits.at(-1)! <= step / 2) splits.pop();
  return [...splits, count - 1];
}

export default function UPlotChart({ chart, height }: { chart: ChartModel; height: number }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const count = chart.values.length;
    const xs = chart.values.map((_, index) => index);
    const data: uPlot.AlignedData = chart.goal === null ? [xs, chart.values] : [xs, chart.values, xs.map(() => chart.goal)];
    const drawn = chart.values.filter((value): value is number => value !== null);
    const top = Math.max(chart.goal ?? 0, ...drawn, 100);
    const bottom = Math.min(0, ...drawn);
    const bars = chart.kind === 'bars';
    const series: uPlot.Series[] = [
      {},
      {
        label: chart.valueLabel,
        stroke: BRAND,
        width: 2,
        fill: BRAND_FILL,
        paths: bars ? uPlot.paths.bars!({ size: [0.7, 48] }) : undefined,
        points: { show: !bars && count <= 2, size: 6, fill: BRAND },
      },
    ];
    if (chart.goal !== null) series.push({ label: 'Mål', stroke: GOAL, width: 2, dash: [6, 4], points: { show: false } });

    const plot = new uPlot(
      {
        width: element.clientWidth || 320,
        height,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: false, range: bars || count <= 1 ? [-0.5, count - 0.5] : [0, count - 1] },
          y: { range: () => [bottom, top * 1.1] },
        },
        axes: [
          {
            stroke: AXIS,
            font: FONT,
            grid: { show: false },
            ticks: { stroke: GRID },
            splits: (u) => xSplits(count, u.width),
            values: (_u, splits) => splits.map((index) => chart.labels[index] ?? ''),
          },
          {
            stroke: AXIS,
            font: FONT,
            size: 76,
            grid: { stroke: GRID },
            ticks: { stroke: GRID },
            values: (_u, splits) => splits.map((value) => formatKronor(value)),
          },
        ],
        series,
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => {
      if (element.clientWidth > 0 && element.clientWidth !== plot.width) plot.setSize({ width: element.clientWidth, height });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [chart, height]);

  return <div ref={box} className="w-full" data-testid="sales-chart-canvas" />;
}
