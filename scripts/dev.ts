/**
 * `npm start` (after the build): `wrangler dev` on http://localhost:8787, quiet offline. Without
 * these two settings wrangler phones home (usage metrics, and the `request.cf` data it fetches from
 * workers.cloudflare.com), which on a machine without internet only prints errors. Either may
 * still be set otherwise in the environment.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const env = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...process.env };
// wrangler's own entry on this Node (not through npx), so that signals reach it directly.
const wrangler = path.join(path.dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin/wrangler.js');
const child = spawn(process.execPath, [wrangler, 'dev', '--port', '8787', ...process.argv.slice(2)], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
