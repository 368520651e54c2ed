/**
 * The data version (decision 057): the newest state of the server's data this page knows of. A
 * write's answer carries the version after it (the `x-data-version` header), and so does a live
 * event (`data_version`); every read presents the highest seen, so that the server process that
 * answers it, whichever of several, answers with that write or change in it.
 */
export const DATA_VERSION_HEADER = 'x-data-version';

let highest = 0;

/** Remembers a version from an answer's header or an event; anything not a version is passed over. */
export function noteDataVersion(value: unknown): void {
  const version = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof version === 'number' && Number.isSafeInteger(version) && version > highest) highest = version;
}

/** The highest version seen, for a read's header; undefined before any. */
export function dataVersionToPresent(): string | undefined {
  return highest > 0 ? String(highest) : undefined;
}
