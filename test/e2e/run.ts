/**
 * `npm run test:e2e`: builds nothing itself (npm run build has run in test:widget / start), starts the
 * product on a free loopback port, runs the end-to-end tests (node's test runner, Playwright driving
 * Debian's Chromium) against it, and stops it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { startServer } from './server.ts';

if (!existsSync('dist/punto-banco-table.js')) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = await startServer();
let status = 1;
try {
  // `node test/e2e/run.ts FILE…` runs only those files; no arguments, every end-to-end test.
  const chosen = process.argv.slice(2);
  const files =
    chosen.length > 0
      ? chosen
      : readdirSync('test/e2e')
          .filter((f) => f.endsWith('.test.ts'))
          .map((f) => `test/e2e/${f}`);
  const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--test', '--test-concurrency=1', ...files], {
    stdio: 'inherit',
    env: { ...process.env, PB_ENDPOINT: server.url },
  });
  status = run.status ?? 1;
} finally {
  await server.stop();
}
process.exit(status);
