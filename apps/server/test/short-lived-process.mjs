/**
 * Preloaded (`--import`, through NODE_OPTIONS: vitest.config.ts) into every process an API test
 * spawns: servers, `npm run backup` and the other operator commands. Each lives for seconds, and
 * compiles PGlite's nine megabytes of WebAssembly anew; V8 then also recompiles the hot part with
 * its optimizing tier on background threads, work that a process this short never earns back.
 * The baseline tier alone runs the same code (the same instructions, only compiled faster and
 * run slower): a third of a spawned server's start-up CPU saved, a tenth of the API tests' on
 * PGlite (decision 078). Production keeps V8's defaults, and so do the test workers themselves.
 */
import v8 from 'node:v8';

v8.setFlagsFromString('--liftoff-only');
