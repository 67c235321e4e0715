/**
 * The built, self-contained dist/verify.html (scripts/verify-page.ts, run by `npm run build`,
 * which `npm run test:widget` runs first): loaded in a frame with no other file, it verifies an
 * honest transcript and names the first failing round of a tampered one.
 */
import { expect } from 'chai';
import type { PbVerifyPage } from '../../widget/panels/index.ts';
import { playShoe, tamperedCopy } from './panels-fixture.ts';

const PAGE = '/dist/verify.html';

describe('dist/verify.html', () => {
  let frame: HTMLIFrameElement | null = null;
  afterEach(() => frame?.remove());

  it('is one self-contained file that verifies in the page', async function () {
    const response = await fetch(PAGE);
    if (!response.ok) {
      console.warn(`${PAGE} is missing: npm run build must call buildVerifyPage(dist) from scripts/verify-page.ts`);
      this.skip();
    }
    // The test server injects its own web-socket script into every HTML page it serves.
    const html = (await response.text()).replace(/<script[^>]*src="\/__web-dev-server__[^"]*"[^>]*><\/script>/g, '');
    expect(html).not.to.match(/<script[^>]+src=/i);
    expect(html).not.to.match(/<link[^>]+href=/i);
    frame = document.createElement('iframe');
    frame.style.width = '800px';
    frame.style.height = '600px';
    document.body.append(frame);
    // srcdoc: the page gets no URL to load anything relative from, as when saved to disk.
    const loaded = new Promise((r) => frame!.addEventListener('load', r, { once: true }));
    frame.srcdoc = html;
    await loaded;
    const doc = frame.contentDocument!;
    const page = doc.querySelector('pb-verify-page') as PbVerifyPage;
    expect(page, 'the page mounts <pb-verify-page>').to.exist;
    await page.updateComplete;

    const { transcript, jwks } = await playShoe({ rounds: 10 });
    page.jwksText = JSON.stringify(jwks);
    page.transcriptText = JSON.stringify({ transcripts: [transcript] });
    expect((await page.verify())[0]!.ok).to.equal(true);
    page.transcriptText = JSON.stringify(tamperedCopy(transcript, 4));
    await page.verify();
    await page.updateComplete;
    const first = page.shadowRoot!.querySelector<HTMLElement>('.first-failure')!;
    expect(first.dataset.round).to.equal('4');
    expect(first.textContent).to.contain('round 4');
  });
});
