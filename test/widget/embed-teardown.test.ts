/**
 * What a table leaves behind when it goes: mounting and removing a table (real Pixi scene) twenty
 * times, some of them mid-round or mid-boot, leaves no live WebGL context, no window / document /
 * media-query listener, no observer still observing and no pending timer or animation frame.
 */
import { expect } from 'chai';
import { FakeWorker, mountTable, unmountAll, until } from './helpers.ts';
import { census, sleep } from './census.ts';

describe('<punto-banco-table> teardown', function () {
  // Twenty Pixi scenes made and destroyed on a software GPU on a shared machine: slow, never timed.
  this.timeout(180_000);
  afterEach(unmountAll);

  it('mounting and removing a table twenty times leaves no WebGL context, listener, observer or timer', async () => {
    // Warm-up outside the census: the first scene loads the Pixi chunk, and Pixi keeps one small
    // probe context per page for its capability checks (a singleton, not per table).
    const first = await mountTable({ scene: 'real', attrs: { 'reduced-motion': '' } });
    await until(() => first.el.scene, 'the first scene', 30_000);
    unmountAll();

    const c = census();
    let scenes = 0;
    try {
      for (let i = 0; i < 20; i++) {
        const worker = new FakeWorker();
        if (i % 5 === 4) {
          // Removed while still loading (session and scene in flight).
          await mountTable({ worker, scene: 'real', ready: false, width: 320, attrs: { 'reduced-motion': '', lang: i % 2 ? 'ru' : 'en' } });
          await sleep(i * 10);
          unmountAll();
          continue;
        }
        // Small tables: on a software GPU, making and destroying a scene costs in proportion to its pixels.
        const { el } = await mountTable({ worker, scene: 'real', width: 320, attrs: { 'reduced-motion': '', room: i % 3 ? 'hall-1' : 'hall-2' } });
        await until(() => el.scene, 'the scene', 30_000);
        scenes++;
        if (i % 6 === 0) {
          el.placeBet(0, 'banker');
          await el.deal();
          await until(() => el.state === 'settled', 'settled', 20_000);
        }
        if (i % 3 === 0) {
          el.clearBets();
          void el.deal(); // nothing on the felt: refused, and the refusal's toast has a timer
        }
        unmountAll();
      }
      // Scenes of tables removed while loading arrive late and are destroyed at once.
      await sleep(1500);
      const lost = c.contexts.map((gl) => gl.isContextLost());
      expect(c.contexts.length, 'one context per scene made').to.be.within(scenes, 20);
      expect(lost.filter((x) => !x).length, 'live WebGL contexts').to.equal(0);
      expect(
        c.listeners.map((l) => `${l.target === window ? 'window' : l.target === document ? 'document' : 'media'}:${l.type}`),
        'listeners left',
      ).to.deep.equal([]);
      expect(c.liveObservers(), 'observers still observing').to.deep.equal([]);
      expect([...c.pending.values()], 'timers and frames still pending').to.deep.equal([]);
    } finally {
      c.restore();
    }
  });
});
