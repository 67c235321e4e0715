/**
 * First step of `npm test`: make sure the Chromium the browser tests drive is there. On a bare
 * Debian machine run as root it installs Debian's `chromium` package (with `sudo -n` when that
 * works without a password); otherwise it stops at once with the one command to run. Nothing is
 * ever downloaded outside the system's package manager.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPlan, type ChromiumPlan } from './chromium-plan.ts';
import { CHROMIUM_PATH } from '../test/chromium.ts';

const runs = (cmd: string, args: string[]): boolean => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

function probe(): ChromiumPlan {
  return chromiumPlan({
    path: CHROMIUM_PATH,
    custom: process.env.CHROMIUM_PATH !== undefined,
    works: existsSync(CHROMIUM_PATH) && runs(CHROMIUM_PATH, ['--version']),
    root: process.getuid?.() === 0,
    apt: runs('apt-get', ['--version']),
    sudo: runs('sudo', ['-n', 'true']),
  });
}

function install(prefix: string[]): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (...args: string[]) => {
    const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
    return spawnSync(cmd!, rest, { stdio: 'inherit', env }).status === 0;
  };
  return apt('update', '-qq') && apt('install', '-y', '-qq', 'chromium');
}

let plan = probe();
if (plan.action === 'install') {
  console.log(`punto-banco: no Chromium at ${CHROMIUM_PATH}; installing Debian's chromium package for the browser tests (${plan.command})`);
  if (install(plan.prefix)) plan = probe();
  if (plan.action !== 'ready')
    plan = {
      action: 'fail',
      message: `installing Chromium failed: run \`${plan.action === 'install' ? plan.command : 'apt-get install -y chromium'}\` yourself, then npm test again`,
    };
}
if (plan.action === 'fail') {
  console.error(`punto-banco: ${plan.message}`);
  process.exit(1);
}
