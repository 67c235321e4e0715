/** The tween engine with injected time: no frames, no clock. */
import { expect } from 'chai';
import { Animator, easeOutCubic, linear } from '../../widget/scene/tween.ts';

describe('Animator', () => {
  it('moves a property over its duration and resolves at the end', async () => {
    const a = new Animator();
    const o = { x: 0 };
    let done = false;
    const p = a.to(o, { x: 100 }, 200, { ease: linear }).then(() => (done = true));
    a.update(50);
    expect(o.x).to.equal(25);
    a.update(100);
    expect(o.x).to.equal(75);
    await Promise.resolve();
    expect(done).to.equal(false);
    a.update(100);
    expect(o.x).to.equal(100);
    await p;
    expect(a.busy).to.equal(false);
  });

  it('waits out a delay and captures the from-value when it starts', () => {
    const a = new Animator();
    const o = { x: 0 };
    void a.to(o, { x: 10 }, 100, { delay: 100, ease: linear });
    a.update(60);
    expect(o.x).to.equal(0);
    o.x = 5; // moved by something else before the tween starts
    a.update(90); // 50 ms into the tween
    expect(o.x).to.equal(7.5);
  });

  it('speed 2 runs twice as fast; speed 0 is instant and finishes running tweens', async () => {
    const a = new Animator();
    a.speed = 2;
    const o = { x: 0 };
    void a.to(o, { x: 1 }, 100, { ease: linear });
    a.update(25);
    expect(o.x).to.equal(0.5);
    a.speed = 0;
    expect(o.x).to.equal(1);
    expect(a.busy).to.equal(false);
    const q = { y: 0 };
    await a.to(q, { y: 3 }, 1000, { ease: easeOutCubic });
    expect(q.y).to.equal(3);
  });

  it('a tween started while another resolves is kept, not lost', async () => {
    const a = new Animator();
    const o = { x: 0, y: 0 };
    const chain = a.to(o, { x: 1 }, 10).then(() => a.to(o, { y: 1 }, 10));
    a.update(10);
    await Promise.resolve();
    await Promise.resolve();
    expect(a.busy).to.equal(true);
    a.update(10);
    await chain;
    expect(o).to.deep.equal({ x: 1, y: 1 });
  });
});
