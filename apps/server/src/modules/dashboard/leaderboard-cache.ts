/**
 * Each group's leaderboard, serialised once per version of the group's figures
 * (group_figures.version, which the database renews in the same transaction as any change to
 * what a leaderboard shows: its orders' figures, its members, their names). Every request reads
 * the current version from the database, so an entry is used only while it is still exact, in
 * this process or any other (DESIGN D11); a version number is never given out twice.
 * A 500-seller group's rows are read and sorted once, not on every dashboard.
 */
export interface LeaderboardCache<T> {
  /** This version of the group's leaderboard, loaded once however many ask at once. */
  get(groupId: number, version: number, load: () => Promise<T>): Promise<T>;
}

export function createLeaderboardCache<T>(options: { maxGroups: number } = { maxGroups: 5_000 }): LeaderboardCache<T> {
  // Map order is use order: the least recently used group is the first key.
  const entries = new Map<number, { version: number; json: Promise<T> }>();
  return {
    get(groupId, version, load) {
      const entry = entries.get(groupId);
      entries.delete(groupId);
      if (entry && entry.version === version) {
        entries.set(groupId, entry);
        return entry.json;
      }
      const json = load();
      const fresh = { version, json };
      entries.set(groupId, fresh);
      // A failed load is not kept: the next request tries again.
      json.catch(() => {
        if (entries.get(groupId) === fresh) entries.delete(groupId);
      });
      if (entries.size > options.maxGroups) entries.delete(entries.keys().next().value!);
      return json;
    },
  };
}
