/**
 * The built, self-contained dist/verify.html (scripts/verify-page.ts, run by `npm run build`,
 * which `npm run test:widget` runs first): loaded in a frame with no other file, it verifies an
 * honest transcript and names the first failing round of a tampered one, and checks a shared
 * table's file with its beacon rounds (the shared-table verifier and the BLS code are in the page).
 */
import { expect } from 'chai';
import type { PbVerifyPage } from '../../widget/panels/index.ts';
import { playShoe, tamperedCopy } from './panels-fixture.ts';

const PAGE = '/dist/verify.html';

describe('dist/verify.html', () => {
  let frame: HTMLIFrameElement | null = null;
  afterEach(() => frame?.remove());

  /** The built page in a frame of its own, by srcdoc: no URL to load anything relative from, as when saved to disk. */
  async function openPage(test: Mocha.Context): Promise<PbVerifyPage> {
    const response = await fetch(PAGE);
    if (!response.ok) {
      console.warn(`${PAGE} is missing: npm run build must call buildVerifyPage(dist) from scripts/verify-page.ts`);
      test.skip();
    }
    // The test server injects its own web-socket script into every HTML page it serves.
    const html = (await response.text()).replace(/<script[^>]*src="\/__web-dev-server__[^"]*"[^>]*><\/script>/g, '');
    expect(html).not.to.match(/<script[^>]+src=/i);
    expect(html).not.to.match(/<link[^>]+href=/i);
    frame = document.createElement('iframe');
    frame.style.width = '800px';
    frame.style.height = '600px';
    document.body.append(frame);
    const loaded = new Promise((r) => frame!.addEventListener('load', r, { once: true }));
    frame.srcdoc = html;
    await loaded;
    const page = frame.contentDocument!.querySelector('pb-verify-page') as PbVerifyPage;
    expect(page, 'the page mounts <pb-verify-page>').to.exist;
    await page.updateComplete;
    return page;
  }

  it('is one self-contained file that verifies in the page', async function () {
    const page = await openPage(this);
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

  it("verifies a shared table's file with its beacon rounds, and names a beacon signature that is not the chain's", async function () {
    const page = await openPage(this);
    const read = async (name: string) => (await fetch(`/test/vectors/conformance/${name}`)).text();
    page.jwksText = await read('jwks.json');
    const codeOf = async (name: string): Promise<string | undefined> => {
      page.transcriptText = await read(name);
      await page.verify();
      await page.updateComplete;
      return page.shadowRoot!.querySelector<HTMLElement>('.summary')?.dataset.code;
    };
    expect(await codeOf('158-shared-ok-quicknet.json')).to.equal('ok');
    expect(await codeOf('199-shared-beacon-signature.json')).to.equal('bad_beacon_signature');
  });

  it("verifies a pb-shared-2 file (closes that commit to a Merkle root of their bets), and names a root that is not the bets'", async function () {
    const page = await openPage(this);
    const read = async (name: string) => (await fetch(`/test/vectors/conformance/${name}`)).text();
    page.jwksText = await read('jwks.json');
    const codeOf = async (name: string): Promise<string | undefined> => {
      page.transcriptText = await read(name);
      await page.verify();
      await page.updateComplete;
      return page.shadowRoot!.querySelector<HTMLElement>('.summary')?.dataset.code;
    };
    expect(await codeOf('300-merkle-ok-two-shoes.json')).to.equal('ok');
    expect(await codeOf('306-merkle-bet-swapped.json')).to.equal('bets_root_mismatch');
    expect(await codeOf('313-merkle-leaf-swapped.json')).to.equal('leaf_mismatch');
  });
});
