/**
 * The product's own pages, served by the real Worker, audited whole (document language, title,
 * landmarks, names, contrast) with axe-core in Debian's Chromium: the standalone verify page, the
 * iframe page and the demo host page, each after its table or form is ready.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';

const ENDPOINT = process.env.PB_ENDPOINT ?? 'http://127.0.0.1:8787';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** axe-core's WCAG 2.1 A/AA violations on the page, one readable line per element. */
async function audit(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${JSON.stringify(n.target)}`));
  });
}

async function tableReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('punto-banco-table') as unknown as { state?: string } | null)?.state === 'ready', null, {
    timeout: 30_000,
  });
}

for (const [name, path, ready] of [
  ['the verify page', '/verify', (page: Page) => page.waitForSelector('pb-verify-page')],
  ['the iframe page', '/embed?room=hall-2&lang=it', tableReady],
  ['the demo host page', '/', tableReady],
] as const) {
  test(`${name} (${path}) has no WCAG 2.1 A/AA violations`, async () => {
    // bypassCSP only lets the audit script in: the pages' own policies are tested elsewhere.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    try {
      await page.goto(new URL(path, ENDPOINT).href);
      await ready(page);
      assert.deepEqual(await audit(page), []);
    } finally {
      await page.close();
    }
  });
}
