// The dashboard feature's public face: other features import only from here.
export { StatList, StatListSkeleton } from './components/stat-list';
export { GroupResults } from './components/group-results';
