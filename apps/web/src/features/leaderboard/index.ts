// The leaderboard feature's public face: other features import only from here.
export { leaderboardQuery, useLeaderboard, type LeaderboardSource } from './api/leaderboard';
export { LeaderboardCard, participationText } from './components/leaderboard-card';
export { LeaderboardModeSetting } from './components/leaderboard-mode-setting';
