/**
 * `npm start` (after the build): `wrangler dev` on http://localhost:8787, quiet offline. Without
 * these two settings wrangler phones home (usage metrics, and the `request.cf` data it fetches from
 * workers.cloudflare.com), which on a machine without internet only prints errors. Either may
 * still be set otherwise in the environment. `npm start -- --port 8795` or `PORT=8795 npm start`
 * picks another port (scripts/dev-args.ts). The development settings (DEV, the development operator
 * "demo") come from scripts/dev-vars.ts as `--var`s: wrangler.toml holds none of them.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { wranglerDevArgs } from './dev-args.ts';
import { devVarArgs } from './dev-vars.ts';

const env = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...process.env };
// wrangler's own entry on this Node (not through npx), so that signals reach it directly.
const wrangler = path.join(path.dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin/wrangler.js');
let args: string[];
try {
  // The development settings (scripts/dev-vars.ts: DEV, the operator "demo"), never in wrangler.toml;
  // before the command line's own arguments, so that a `--var` given there wins.
  const [command, portFlag, port, ...rest] = wranglerDevArgs(process.argv.slice(2), process.env);
  args = [command!, portFlag!, port!, ...devVarArgs(), ...rest];
} catch (err) {
  console.error(`npm start: ${(err as Error).message}`);
  process.exit(2);
}
const child = spawn(process.execPath, [wrangler, ...args], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
