/**
 * A `localStorage` held in a Map, for unit tests that run without a browser. Installs itself on
 * `globalThis` and returns the Map, so that a test can look at or clear what was stored.
 */
export function installMemoryStorage(): Map<string, string> {
  const store = new Map<string, string>();
  globalThis.localStorage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
    clear: () => store.clear(),
    key: () => null,
    length: 0,
  } as Storage;
  return store;
}
