import { describe, expect, it, vi } from 'vitest';
import { installMemoryStorage } from './memory-storage.test-support';
import { apiJson } from './api-client';
import { TOKEN_STORAGE_KEY } from './session';
import { DATA_VERSION_HEADER, dataVersionToPresent, noteDataVersion } from './data-version';

vi.mock('./toast', () => ({ notify: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const store = installMemoryStorage();
const token = `h.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 900 })).toString('base64url')}.s`;

describe('the data version', () => {
  it('keeps the highest seen, and nothing that is not a version', () => {
    noteDataVersion('120');
    noteDataVersion(90);
    noteDataVersion('12a');
    noteDataVersion(null);
    noteDataVersion(-5);
    expect(dataVersionToPresent()).toBe('120');
    noteDataVersion(140);
    expect(dataVersionToPresent()).toBe('140');
  });

  it('comes with a write’s answer and goes with every read after it', async () => {
    store.set(TOKEN_STORAGE_KEY, token);
    const sent: (string | null)[] = [];
    globalThis.fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      sent.push(new Headers(init?.headers).get(DATA_VERSION_HEADER));
      return new Response('{"ok":true}', { headers: { 'content-type': 'application/json', [DATA_VERSION_HEADER]: '9000' } });
    }) as unknown as typeof fetch;
    await apiJson('/api/account/profile', { method: 'POST', body: { full_name: 'Ny' } });
    await apiJson('/api/me/summary');
    expect(sent).toEqual([null, '9000']);
  });
});
