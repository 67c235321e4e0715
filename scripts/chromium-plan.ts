/** What `npm test` does about Chromium, decided from what the machine has (pure, so it is tested). */
export interface ChromiumFacts {
  path: string;
  /** The path came from CHROMIUM_PATH: the user chose it, so never install over it. */
  custom: boolean;
  /** The binary exists and `--version` runs. */
  works: boolean;
  root: boolean;
  apt: boolean;
  /** `sudo -n` works without a password. */
  sudo: boolean;
}

export type ChromiumPlan = { action: 'ready' } | { action: 'install'; prefix: string[]; command: string } | { action: 'fail'; message: string };

const APT = 'apt-get update && apt-get install -y chromium';

export function chromiumPlan(f: ChromiumFacts): ChromiumPlan {
  if (f.works) return { action: 'ready' };
  if (f.custom)
    return {
      action: 'fail',
      message: `CHROMIUM_PATH=${f.path} does not run (\`${f.path} --version\` failed): point it at a working Chromium, or unset it to use Debian's`,
    };
  if (f.apt && f.root) return { action: 'install', prefix: [], command: APT };
  if (f.apt && f.sudo) return { action: 'install', prefix: ['sudo', '-n'], command: `sudo ${APT.replace('&& ', '&& sudo ')}` };
  if (f.apt)
    return {
      action: 'fail',
      message: `the browser tests need Chromium at ${f.path}: run \`sudo apt-get update && sudo apt-get install -y chromium\`, then npm test again`,
    };
  return {
    action: 'fail',
    message: `the browser tests need Chromium at ${f.path}: install your system's chromium package, or set CHROMIUM_PATH to a Chromium binary, then npm test again`,
  };
}
