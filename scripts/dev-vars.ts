/**
 * The development settings: what `npm start` (scripts/dev.ts) and the end-to-end server
 * (test/e2e/server.ts) give `wrangler dev` as `--var NAME:VALUE`, and never wrangler.toml, so that
 * a plain `wrangler deploy` ships none of them (DEPLOY.md "A deploy that fails closed"):
 *
 * - `DEV = "true"`: browsers on http://localhost:* and http://127.0.0.1:* may call the API and frame
 *   the table;
 * - the development operator `demo` (wallet mode): its wallet is the reference wallet on
 *   http://127.0.0.1:8788 (`npx punto-banco wallet --secret dev-demo-secret`), one secret both
 *   directions, `dev-demo-secret`, playing EUR, JPY and BHD at the default limits of every room.
 */

/** The development operator (a fixed interface: the demo, the CLI's examples and the tests use it). */
export const DEV_OPERATOR = { id: 'demo', walletUrl: 'http://127.0.0.1:8788', secret: 'dev-demo-secret', currencies: ['EUR', 'JPY', 'BHD'] } as const;

export const DEV_VARS: Readonly<{ DEV: string; OPERATOR_SETTINGS: string; OPERATOR_SECRETS: string }> = {
  DEV: 'true',
  OPERATOR_SETTINGS: JSON.stringify([
    { id: DEV_OPERATOR.id, walletUrl: DEV_OPERATOR.walletUrl, currencies: Object.fromEntries(DEV_OPERATOR.currencies.map((c) => [c, 'default'])) },
  ]),
  OPERATOR_SECRETS: JSON.stringify({ [DEV_OPERATOR.id]: { provider: DEV_OPERATOR.secret, operator: DEV_OPERATOR.secret } }),
};

/** `wrangler dev` arguments setting these vars; `overrides` win (given later, and merged first). */
export function devVarArgs(overrides: Readonly<Record<string, string>> = {}): string[] {
  return Object.entries({ ...DEV_VARS, ...overrides }).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
}
