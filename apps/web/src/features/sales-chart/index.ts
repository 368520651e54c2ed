// The sales chart's public face (issue 20): other features import only from here.
import { lazy } from 'react';

export { perDayModel, perWeekModel, type SalesChartModel } from './chart-model';

/*
 * The charts are loaded after a page's first paint (decision 043): neither uPlot nor the chart's
 * own components are in the JavaScript /login and /dashboard need to show. Each one is drawn
 * inside a <Suspense>.
 */
export const GroupSalesChart = lazy(() => import('./components/group-sales-chart').then((module) => ({ default: module.GroupSalesChart })));
export const SalesChart = lazy(() => import('./components/sales-chart').then((module) => ({ default: module.SalesChart })));
