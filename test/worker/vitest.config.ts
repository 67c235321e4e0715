/**
 * The Worker's tests run inside workerd (the Workers runtime) through @cloudflare/vitest-plugin,
 * with the bindings, Durable Objects and vars of wrangler.toml. Each test file gets its own
 * isolated storage.
 */
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineProject } from 'vitest/config';
import { DEV_OPERATOR, DEV_VARS } from '../../scripts/dev-vars.ts';
import { writeMclWasm } from '../../scripts/mcl-wasm.ts';
import { startTestWallet } from './reference-wallet.ts';

// No telemetry and no network look-ups from wrangler while testing.
process.env.WRANGLER_SEND_METRICS ??= 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The beacon check's WebAssembly, which the Worker imports (a build output, scripts/mcl-wasm.ts).
await writeMclWasm();

/** The development operator's wallet for these tests: the reference wallet on a free port. */
const walletUrl = await startTestWallet(DEV_OPERATOR.secret);

/**
 * The tests read these through `env` (embedding.test.ts, ledger.test.ts, security.test.ts). DEV
 * and the operators are not in wrangler.toml (a deploy ships none): they are set here, as
 * `npm start` sets them (scripts/dev-vars.ts).
 */
const TEST_VARS = {
  DEV: DEV_VARS.DEV,
  // Wallet mode (operator-*.test.ts): the development operator "demo" with its wallet here, and
  // "other-casino", another operator with its own secret (its wallet is never called).
  OPERATOR_SETTINGS: JSON.stringify([
    { id: DEV_OPERATOR.id, walletUrl, timeoutMs: 5000, currencies: { EUR: 'default', JPY: 'default', BHD: 'default' } },
    { id: 'other-casino', walletUrl: 'https://wallet.other-casino.example', currencies: { EUR: 'default' } },
  ]),
  OPERATOR_SECRETS: JSON.stringify({
    [DEV_OPERATOR.id]: { provider: DEV_OPERATOR.secret, operator: DEV_OPERATOR.secret },
    'other-casino': { provider: 'other-casino-provider-secret', operator: 'other-casino-operator-secret' },
  }),
  EMBED_ORIGINS: JSON.stringify({
    '*': ['https://casino.example'],
    acme: ['https://acme.example', 'https://*.acme-partners.example'],
    beta: ['https://beta.example:8443'],
  }),
  ADMIN_TOKEN: 'test-admin-token-0123456789',
  // The operator's key for acme's server (signed attribution); beta has none.
  AFFILIATE_KEYS: JSON.stringify({ acme: 'acme-test-affiliate-key-0123456789abcdef' }),
  // Shared tables (shared-table*.test.ts): short betting windows, a short grace for a late beacon.
  SHARED_WINDOW_MS: '700',
  SHARED_BEACON_LATE_MS: '2500',
  // A table that exists by configuration: a GET creates it (any other id opens with its first seated player).
  SHARED_TABLE_IDS: 'hall-1/routes.reshuffle.fast,hall-1/configured,hall-1/middle',
};

export default defineProject({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: `${root}/wrangler.toml` },
      // Test settings on top of wrangler.toml's vars: embedding origins of two affiliates, and the
      // operator token (a secret, which wrangler.toml never holds).
      miniflare: { bindings: TEST_VARS },
    }),
  ],
  test: {
    name: 'worker',
    // Relative to this folder, the project's root.
    include: ['**/*.test.ts'],
    // The machine may be busy; a test that waits is slow, not wrong (figures belong in the bench).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
