/**
 * The table fits the viewport without moving once it is up (widget/styles, table-input.ts):
 * - on a page of five stacked tables, one scrollIntoView on the last one leaves it at the top of
 *   the viewport, and it stays there once every table above has settled (no table changes height
 *   after it is ready);
 * - the boxes stand still from the first frame they are painted to well after pb-ready, wide and
 *   narrow, with reduced motion and without.
 * Frames are counted with requestAnimationFrame, never timed.
 */
import { expect } from 'chai';
import { FakeWorker, mountTable, shadow, unmountAll } from './helpers.ts';

const frame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/** Waits until `read` gives the same answer `still` frames in a row (at most `limit` frames); returns it. */
async function standStill(read: () => string, still = 20, limit = 600): Promise<string> {
  let last = read();
  let same = 0;
  for (let i = 0; i < limit && same < still; i++) {
    await frame();
    const now = read();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

const rect = (el: Element): string => {
  const r = el.getBoundingClientRect();
  return [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 10) / 10).join(',');
};

describe('the table fit', function () {
  this.timeout(60_000);

  afterEach(() => {
    unmountAll();
    window.scrollTo(0, 0);
  });

  it('five stacked tables: one scrollIntoView brings the last to the top, and no table above changes height after it', async () => {
    window.scrollTo(0, 0);
    const worker = new FakeWorker();
    const tables = await Promise.all(
      [0, 1, 2, 3, 4].map(() =>
        mountTable({
          worker,
          width: 320,
          attrs: { 'reduced-motion': '' },
          setup: (el) => (el.style.cssText = 'display: block; margin-bottom: 1600px'),
        }),
      ),
    );
    const els = tables.map((t) => t.el);
    const heights = (): string => els.map((el) => Math.round(el.getBoundingClientRect().height)).join(' ');
    const atReady = heights();
    const far = els.at(-1)!;
    far.scrollIntoView({ block: 'start' });
    expect(Math.round(far.getBoundingClientRect().top), 'just after scrollIntoView').to.equal(0);
    const settled = await standStill(() => `${heights()} | ${Math.round(far.getBoundingClientRect().top)}`);
    expect(settled, 'heights | the far table top, once they stand still').to.equal(`${atReady} | 0`);
  });

  for (const width of [760, 320, 1000]) {
    for (const reduced of [true, false]) {
      it(`${width} px${reduced ? ', reduced motion' : ''}: the boxes and the felt stand still from their first paint`, async () => {
        const seen: string[] = [];
        let el: HTMLElement | null = null;
        let ready = false;
        let afterReady = 0;
        const done = new Promise<void>((resolve) => {
          const tick = (): void => {
            const box = el?.shadowRoot?.querySelector('.box[data-sector="2"][data-box="banker"]');
            const stage = el?.shadowRoot?.querySelector('.stage');
            if (box && stage) seen.push(`box ${rect(box)} felt ${rect(stage)}`);
            if (ready && ++afterReady > 30) resolve();
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        });
        const t = await mountTable({
          worker: new FakeWorker(),
          width,
          attrs: reduced ? { 'reduced-motion': '' } : { 'reduced-motion': 'false' },
          ready: false,
          setup: (x) => {
            el = x;
            x.addEventListener('pb-ready', () => (ready = true), { once: true });
          },
        });
        await done;
        expect(shadow(t.el).querySelectorAll('.box')).to.have.length(15);
        expect(seen.length, 'frames with the boxes painted').to.be.greaterThan(20);
        expect([...new Set(seen)], 'every position the box and the felt took').to.deep.equal([seen[0]]);
      });
    }
  }
});
