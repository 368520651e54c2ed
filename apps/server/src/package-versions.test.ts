import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every dependency is pinned to one version, so that `npm install` and `npm ci` on a fresh machine
// resolve exactly what the lockfile and decision 001 checked against this machine's Node.
const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const manifests = ['package.json', 'apps/server/package.json', 'apps/web/package.json', 'packages/contract/package.json'];
const exactVersion = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

describe('package versions', () => {
  it.each(manifests)('%s names an exact version for every dependency and override', (manifest) => {
    const json = JSON.parse(fs.readFileSync(path.join(root, manifest), 'utf8')) as Record<string, unknown>;
    const ranges: string[] = [];
    const visit = (section: string, entries: unknown) => {
      for (const [name, version] of Object.entries((entries ?? {}) as Record<string, unknown>)) {
        if (typeof version === 'object') visit(`${section}.${name}`, version);
        else if (!exactVersion.test(String(version))) ranges.push(`${section}.${name}: ${String(version)}`);
      }
    };
    for (const section of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'overrides'])
      visit(section, json[section]);
    expect(ranges).toEqual([]);
  });
});
