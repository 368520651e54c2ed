// The leaderboard feature's public face: other features import only from here.
export { useLeaderboard } from './api/leaderboard';
export { LeaderboardCard, participationText } from './components/leaderboard-card';
export { LeaderboardModeSetting } from './components/leaderboard-mode-setting';
