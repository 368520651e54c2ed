/** Which HOST keeps demo accounts on this computer, and the refusal of one that does not (issue 28). */
import { describe, expect, it } from 'vitest';
import { demoOnNetwork, isLoopback } from './demo-on-network.js';

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1'])(
    '%s is this computer',
    (host) => {
      expect(isLoopback(host)).toBe(true);
    },
  );

  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.5', 'portal.skolan.se', '128.0.0.1', '::ffff:10.0.0.1'])(
    '%s is the network',
    (host) => {
      expect(isLoopback(host)).toBe(false);
    },
  );
});

describe('demoOnNetwork', () => {
  it('names the HOST, the demo accounts and the three ways on, in one Swedish line', () => {
    const refusal = demoOnNetwork('0.0.0.0', 34);
    expect(refusal.code).toBe('CONFIG');
    expect(refusal.message).toMatch(/^HOST=0\.0\.0\.0 är inte tillåtet här: databasen har 34 av demodatans konton/);
    for (const way of ['npm run remove-demo-data', 'låt HOST vara osatt', 'ALLOW_DEMO_ON_NETWORK=1'])
      expect(refusal.message).toContain(way);
    expect(demoOnNetwork('::', 'seed').message).toContain('SEED_DEMO=0');
    expect(refusal.message).not.toContain('\n');
  });
});
