// The leaderboard feature's public face: other features import only from here.
export { useLeaderboard, type LeaderboardSource } from './api/leaderboard';
export { LeaderboardCard } from './components/leaderboard-card';
