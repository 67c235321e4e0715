/**
 * The Worker's tests run inside workerd (the Workers runtime) through @cloudflare/vitest-plugin,
 * with the bindings, Durable Objects and vars of wrangler.toml. Each test file gets its own
 * isolated storage.
 */
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';

// No telemetry and no network look-ups from wrangler while testing.
process.env.WRANGLER_SEND_METRICS ??= 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default defineProject({
  plugins: [cloudflareTest({ wrangler: { configPath: `${root}/wrangler.toml` } })],
  test: {
    name: 'worker',
    // Relative to this folder, the project's root.
    include: ['**/*.test.ts'],
    // The machine may be busy; a test that waits is slow, not wrong (figures belong in the bench).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
