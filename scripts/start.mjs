// `npm start`: builds what is missing or older than its sources, then runs the server in this very
// process. npm's script shell `exec`s this process (package.json), so the SIGTERM npm forwards,
// or a container's, reaches the server itself and it drains before it exits (decision 016).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildPart, parts, repoRoot, stopBuild, whyBuild } from './build.mjs';

const stop = (signal) => {
  stopBuild(signal);
  process.exit(1);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

try {
  for (const part of parts) {
    const reason = whyBuild(part);
    if (!reason) continue;
    console.error(`Bygger ${part.name} (${reason}) …`);
    await buildPart(part, { quiet: true });
  }
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

process.off('SIGINT', stop);
process.off('SIGTERM', stop);
// A wrong setting is told before the server's code is loaded (issue 34): the same line, sooner.
const { configurationHolds } = await import(pathToFileURL(path.join(repoRoot, 'apps/server/dist/check-config.js')).href);
if (!configurationHolds()) process.exit(1);
await import(pathToFileURL(path.join(repoRoot, 'apps/server/dist/main.js')).href);
