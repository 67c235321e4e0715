/**
 * The one Chromium every browser test, screenshot tool and bench uses: Debian's package at
 * /usr/bin/chromium (or CHROMIUM_PATH), never a browser downloaded at run time. Its headless
 * flags give Pixi a WebGL renderer through SwiftShader.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
];

/** Debian's Chromium under playwright-core (end-to-end tests, screenshot tools, the bench). */
export async function launchChromium(extraArgs: string[] = []): Promise<import('playwright-core').Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
