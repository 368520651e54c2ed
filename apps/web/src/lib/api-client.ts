import { DATA_VERSION_HEADER, dataVersionToPresent, noteDataVersion } from './data-version';
import { downloadName } from './download-name';
import { clearSession, getValidToken, wasServerUnreachable } from './session';

/** An API failure with the server's Swedish message (or 'API {status}', spec §8). */
/**
 * What any call that cannot reach the server says (issue 33 point 4): that it needs a connection,
 * and that nothing happens until the person asks again.
 */
export const NO_CONNECTION = 'Ingen anslutning. Det här kräver internet, försök igen när du är ansluten.';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: unknown;

  constructor(status: number, message: string, code?: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  get isUnauthorized(): boolean {
    return this.status === 401 || this.status === 403 || this.message === 'unauthorized';
  }
}

export const UNAUTHORIZED_EVENT = 'saljportalen:unauthorized';

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /**
   * spec §8: any 401/403 clears the session and leads to login. Checks that only probe a
   * permission (the superadmin check) turn this off, so a 403 there does not sign anyone out.
   */
  signOutOnUnauthorized?: boolean;
  signal?: AbortSignal;
}

function buildUrl(path: string, query?: ApiRequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { message?: string; code?: string; details?: unknown } };
    if (body.error?.message) return new ApiError(response.status, body.error.message, body.error.code, body.error.details);
  } catch {
    // Not JSON: the body text itself is the message (spec §8).
  }
  return new ApiError(response.status, text.trim() && text.length < 300 ? text.trim() : `API ${response.status}`);
}

/** Signs out after a 401/403 and tells the app (which shows the toast and goes to /login). */
export function signOutUnauthorized(): void {
  clearSession();
  window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT));
}

/**
 * The one way the web talks to the API: bearer token, no caching, Swedish errors, and the data
 * version (lib/data-version.ts): remembered from every answer, presented on every read.
 */
export async function apiRequest(path: string, options: ApiRequestOptions = {}): Promise<Response> {
  const { method = 'GET', body, query, auth = true, signOutOnUnauthorized = true, signal } = options;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (auth) {
    const token = await getValidToken();
    // Offline, a session that cannot be renewed has not ended: the call fails as any call without network does.
    if (!token && wasServerUnreachable()) throw new ApiError(0, NO_CONNECTION, 'OFFLINE');
    if (!token) {
      if (signOutOnUnauthorized) signOutUnauthorized();
      throw new ApiError(401, 'unauthorized', 'UNAUTHENTICATED');
    }
    headers.authorization = `Bearer ${token}`;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const version = method === 'GET' ? dataVersionToPresent() : undefined;
  if (version) headers[DATA_VERSION_HEADER] = version;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    // fetch's own TypeError ('Failed to fetch') is no message for a person; a call the page called off is no failure.
    if (signal?.aborted) throw error;
    throw new ApiError(0, NO_CONNECTION, 'OFFLINE');
  }
  noteDataVersion(response.headers.get(DATA_VERSION_HEADER));
  if (!response.ok) {
    const error = await errorFrom(response);
    if ((response.status === 401 || response.status === 403) && auth && signOutOnUnauthorized) signOutUnauthorized();
    throw error;
  }
  return response;
}

export async function apiJson<T>(path: string, options?: ApiRequestOptions): Promise<T> {
  const response = await apiRequest(path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Downloads a file answer (PDF, CSV) and saves it under the server's name for it, or else the given name. */
export async function apiDownload(path: string, fileName: string, options?: ApiRequestOptions): Promise<void> {
  const response = await apiRequest(path, options);
  saveBlob(await response.blob(), downloadName(response.headers.get('content-disposition'), fileName));
}

/** Saves `blob` as a download named `fileName` (a blob: link: navigation, which the CSP's img-src does not govern). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
