import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installMemoryStorage } from './memory-storage.test-support';
import { UNAUTHORIZED_EVENT } from './api-client';
import { TOKEN_STORAGE_KEY } from './session';
import { apiJsonEarly, requestEarly } from './early-requests';

vi.mock('./toast', () => ({ notify: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const store = installMemoryStorage();
const token = `h.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 900 })).toString('base64url')}.s`;
const events = vi.fn((_event: Event) => true);
globalThis.window = { dispatchEvent: events } as unknown as Window & typeof globalThis;
const signOuts = () => events.mock.calls.filter(([event]) => event.type === UNAUTHORIZED_EVENT).length;
/** Lets the early calls reach fetch (they first read the token, asynchronously). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A fetch answering each call with the next of `answers`, counting the calls. */
function serverAnswers(...answers: (() => Response)[]) {
  const calls: string[] = [];
  globalThis.fetch = vi.fn(async (url: string | URL | Request) => {
    calls.push(String(url));
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as unknown as typeof fetch;
  return calls;
}
const json =
  (body: unknown, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status });

describe('calls started early by the entry (decision 045)', () => {
  beforeEach(() => {
    store.clear();
    store.set(TOKEN_STORAGE_KEY, token);
    events.mockClear();
    vi.useRealTimers();
  });

  it("gives the page's first call the early answer, once; the next call asks the server", async () => {
    const calls = serverAnswers(json({ n: 1 }), json({ n: 2 }));
    requestEarly(['/api/me/summary']);
    await settle();
    expect(calls).toHaveLength(1);
    await expect(apiJsonEarly('/api/me/summary')).resolves.toEqual({ n: 1 });
    await expect(apiJsonEarly('/api/me/summary')).resolves.toEqual({ n: 2 });
    expect(calls).toHaveLength(2);
  });

  it('makes a failed early call again, so that the page handles its failure (a 401 signs out then, not before)', async () => {
    const calls = serverAnswers(json({ error: { message: 'unauthorized' } }, 401), json({ error: { message: 'unauthorized' } }, 401));
    requestEarly(['/api/group/totals']);
    await settle();
    expect(calls).toHaveLength(1);
    expect(store.get(TOKEN_STORAGE_KEY)).toBe(token);
    expect(signOuts()).toBe(0);
    await expect(apiJsonEarly('/api/group/totals')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(2);
    expect(store.has(TOKEN_STORAGE_KEY)).toBe(false);
    expect(signOuts()).toBe(1);
  });

  it('does not use an early answer older than 10 seconds', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const calls = serverAnswers(json({ n: 'old' }), json({ n: 'new' }));
    requestEarly(['/api/group/leaderboard-mine']);
    vi.advanceTimersByTime(10_001);
    await expect(apiJsonEarly('/api/group/leaderboard-mine')).resolves.toEqual({ n: 'new' });
    expect(calls).toHaveLength(2);
  });
});
