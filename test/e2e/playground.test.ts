/**
 * The demo page as a playground (demo/playground.js), served by the real Worker: at 1280×720 and
 * 1366×768 the table's Deal button is above the fold; every attribute and theme variable of the
 * element's manifest has a control; changing one changes the table at once and the snippet to copy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserForFile, ENDPOINT, SHOTS } from './browser.ts';

const browser = browserForFile();

interface Manifest {
  modules: { declarations?: { tagName?: string; attributes?: { name: string }[]; cssProperties?: { name: string }[] }[] }[];
}

async function openDemo(width: number, height: number): Promise<Page> {
  const page = await browser().newPage({ viewport: { width, height } });
  await page.goto(`${ENDPOINT}/`);
  await page.waitForFunction(() => (document.querySelector('punto-banco-table') as unknown as { state?: string } | null)?.state === 'ready', null, {
    timeout: 60_000,
  });
  return page;
}

for (const [width, height] of [
  [1280, 720],
  [1366, 768],
] as const) {
  test(`at ${width}×${height} the Deal button is above the fold`, async () => {
    const page = await openDemo(width, height);
    try {
      const deal = page.getByRole('button', { name: 'Deal', exact: true });
      const box = await deal.boundingBox();
      assert.ok(box, 'the Deal button is laid out');
      await page.screenshot({ path: `${SHOTS}/demo-fold-${width}x${height}.png` });
      assert.equal(await page.evaluate(() => scrollY), 0);
      assert.ok(box.y >= 0 && box.y + box.height <= height, `the Deal button spans y ${box.y}–${box.y + box.height}, the fold is at ${height}`);
    } finally {
      await page.close();
    }
  });
}

test('the playground: a control for every attribute and theme variable; each change reaches the table and the snippet', async () => {
  const page = await openDemo(1280, 900);
  try {
    const manifest = (await (await fetch(`${ENDPOINT}/custom-elements.json`)).json()) as Manifest;
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'punto-banco-table')!;
    await page.waitForSelector('#pg-theme .pg-field');
    // The side card has language, room, table and mode; the playground everything else.
    const side: Record<string, string> = { lang: '#lang-select', room: '#room-select', table: '#table-select', mode: '#mode-select' };
    for (const { name } of element.attributes ?? []) {
      assert.equal(await page.locator(side[name] ?? `#pg-attr-${name}`).count(), 1, `a control for the attribute ${name}`);
    }
    assert.ok((element.cssProperties ?? []).length >= 20);
    for (const { name } of element.cssProperties ?? []) {
      assert.equal(await page.locator(`#pg-css-${name.slice(2)}`).count(), 1, `a control for ${name}`);
    }
    const snippet = () => page.locator('#snippet').textContent();
    assert.match((await snippet())!, new RegExp(`^<script type="module" src="${ENDPOINT}/punto-banco-table.js"></script>`));
    assert.doesNotMatch((await snippet())!, /endpoint=/, 'the table talks to the Worker that served the script: no endpoint to copy');
    assert.doesNotMatch((await snippet())!, /\bdata-|\bid=/, "the element's own marks and the demo's id are not the embedder's");

    // An attribute: the table has it at once, and so does the snippet.
    await page.getByLabel('currency', { exact: true }).fill('USD');
    await page.getByLabel('currency', { exact: true }).press('Enter');
    await page.getByLabel('speed', { exact: true }).selectOption('fast');
    assert.equal(await page.locator('punto-banco-table').getAttribute('currency'), 'USD');
    assert.equal(await page.locator('punto-banco-table').getAttribute('speed'), 'fast');
    assert.match((await snippet())!, /<punto-banco-table [^>]*currency="USD"[^>]*speed="fast"[^>]*><\/punto-banco-table>$/);

    // A theme variable: the felt's colour on the element, and a style rule in the snippet.
    await page.locator('#pg-css-pb-felt').fill('#123456');
    assert.equal(await page.locator('punto-banco-table').evaluate((el: HTMLElement) => el.style.getPropertyValue('--pb-felt')), '#123456');
    assert.match((await snippet())!, /<style>\n {2}punto-banco-table \{\n {4}--pb-felt: #123456;\n {2}\}\n<\/style>/);
    // The player's own switches are attributes too (mode, speed, muted reflect): the snippet follows them.
    await page.getByLabel('muted', { exact: true }).check();
    assert.match((await snippet())!, /<punto-banco-table [^>]*\bmuted\b/);
    await page.getByRole('button', { name: 'Reset --pb-felt', exact: true }).click();
    assert.doesNotMatch((await snippet())!, /--pb-felt/);
    await page.screenshot({ path: `${SHOTS}/demo-playground.png`, fullPage: true });
  } finally {
    await page.close();
  }
});
