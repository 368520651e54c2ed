// A group's results (its totals, who has sold, the goal's progress) as the dashboard and the
// guardian's page show them: other features import only from here.
export { GroupResults } from './components/group-results';
export { StatList, StatListSkeleton } from './components/stat-list';
