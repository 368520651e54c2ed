/**
 * Two cluster workers on one port, as WEB_CONCURRENCY=2 runs them, serving the metrics through
 * lib/metrics.ts (metrics-cluster.api.test.ts starts it): GET /count counts one request and answers
 * the worker's pid, GET /metrics answers metricsText(). Prints `ready` when both listen.
 */
import cluster from 'node:cluster';
import http from 'node:http';
import { httpRequests, metricsText } from '../src/lib/metrics.js';

const port = Number(process.env.PORT);

if (cluster.isPrimary) {
  cluster.fork();
  cluster.fork();
  let listening = 0;
  cluster.on('listening', () => {
    if (++listening === 2) console.log('ready');
  });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  http
    .createServer((request, response) => {
      if (request.url === '/metrics') {
        metricsText().then(
          (text) => response.end(text),
          (error: unknown) => {
            response.statusCode = 500;
            response.end(String(error));
          },
        );
        return;
      }
      httpRequests.inc({ route: '/count', method: 'GET', status: '200' });
      response.end(String(process.pid));
    })
    .listen(port, '127.0.0.1');
}
