/**
 * Debian's Chromium for the end-to-end tests (never a downloaded browser), headless, with WebGL
 * through SwiftShader and no background traffic. `extraArgs` adds flags (host-resolver rules).
 */
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../chromium.ts';
import { roundForDisplay } from '../../shared/money.ts';

export { launchChromium };

/** The product under test (`test/e2e/run.ts` starts it and passes its URL). */
export const ENDPOINT = process.env.PB_ENDPOINT ?? 'http://127.0.0.1:8787';
/** Where the end-to-end screenshots go (look at them). */
export const SHOTS = 'test-results/e2e';

/** Minor units as the table shows euros: in cents (shared/money.ts, halves away from zero), English. */
export const euros = (minor: number): string => new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(roundForDisplay(minor, 2) / 1000);

/** One browser for a test file: launched before its tests, closed after. Returns its getter. */
export function browserForFile(extraArgs: string[] = []): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium(extraArgs);
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet');
    return browser;
  };
}
