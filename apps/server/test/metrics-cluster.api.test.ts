/**
 * Issue 21 §1 with §5: with several workers on one port (WEB_CONCURRENCY), whichever worker a
 * scrape reaches answers the metrics of all of them, added up through the cluster's primary.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from './spawned-server.js';

/** One request on a connection of its own, so that the cluster hands each to the next worker. */
const get = (port: number, pathname: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });

describe('GET /metrics with two cluster workers', () => {
  let cluster: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'metrics-cluster.ts');
    cluster = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, env: { ...process.env, PORT: String(port) } });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      cluster.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('ready')) resolve();
      });
      cluster.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      cluster.once('exit', (code) => reject(new Error(`klustret avslutades (${code}): ${output}`)));
    });
  });
  afterAll(async () => {
    if (cluster && cluster.exitCode === null) {
      const exited = new Promise((resolve) => cluster.once('exit', resolve));
      cluster.kill('SIGTERM');
      await exited;
    }
  });

  it("answers every worker's counts added up, whichever worker is asked", async () => {
    const pids = new Set<string>();
    for (let i = 0; i < 20; i++) pids.add((await get(port, '/count')).body);
    // Both workers took requests: one worker's count alone would be less than 20.
    expect(pids.size).toBe(2);

    for (let i = 0; i < 6; i++) {
      const { status, body } = await get(port, '/metrics');
      expect(status, body).toBe(200);
      expect(body).toContain('saljportalen_http_requests_total{route="/count",method="GET",status="200"} 20');
      // Process metrics come from both workers, under one name each.
      expect(body.match(/^# TYPE process_resident_memory_bytes gauge$/gm)).toHaveLength(1);
    }
  });
});
