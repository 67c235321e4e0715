/** Mounting: states, events, the accessible DOM over the canvas, focus order, the lazy scene. */
import { expect } from 'chai';
import { FakeWorker, mountTable, shadow, unmountAll, until } from './helpers.ts';
import { ROOMS } from '../../shared/table.ts';

describe('<punto-banco-table> mounting', () => {
  afterEach(unmountAll);

  it('shows the loader, then opens a session and becomes ready', async () => {
    const worker = new FakeWorker();
    let release!: () => void;
    worker.gate = new Promise((r) => (release = r));
    const { el, events } = await mountTable({ worker, ready: false });
    await until(() => shadow(el).querySelector('.loader'), 'the loader');
    expect(el.state).to.equal('loading');
    expect(shadow(el).querySelector('[part="table"]')!.getAttribute('aria-busy')).to.equal('true');
    worker.gate = null;
    release();
    await until(() => el.state === 'ready', 'ready');
    expect(shadow(el).querySelector('.loader')).to.equal(null);
    const ready = events.find((e) => e.type === 'pb-ready')!;
    expect(ready.detail).to.deep.include({ sessionId: 's1', room: 'hall-1', balance: 1_000_000 });
    expect(ready.bubbles && ready.composed).to.equal(true);
    const create = worker.requests('sessions')[0]!;
    expect(create.method).to.equal('POST');
    // The room, and the player's Ed25519 public key its records will name.
    expect(create.body).to.have.keys('room', 'playerKey');
    expect(create.body).to.include({ room: 'hall-1' });
    expect((create.body as { playerKey: string }).playerKey).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(create.headers['idempotency-key']).to.match(/^[0-9a-f]{32}$/);
  });

  it('lays the chips, then 15 named box buttons over the felt, sector by sector, then the controls', async () => {
    const { el } = await mountTable();
    const root = shadow(el);
    const focusables = [...root.querySelectorAll<HTMLButtonElement>('button')];
    const boxes = focusables.filter((b) => b.classList.contains('box'));
    expect(boxes).to.have.length(15);
    // DOM order is focus order: the chips, then sector 0 player/banker/tie, sector 1 …, then the
    // actions (the boxes are one Tab stop, the arrow keys walk them: element-betting.test.ts).
    expect(boxes.map((b) => `${b.dataset.sector}${b.dataset.box![0]}`).join(' ')).to.equal('0p 0b 0t 1p 1b 1t 2p 2b 2t 3p 3b 3t 4p 4b 4t');
    const lastChip = focusables.map((b) => b.classList.contains('chip')).lastIndexOf(true);
    expect(lastChip).to.be.lessThan(focusables.indexOf(boxes[0]!));
    expect(focusables.indexOf(boxes[14]!)).to.be.lessThan(focusables.findIndex((b) => b.dataset.action === 'undo'));
    expect(boxes[0]!.getAttribute('aria-label')).to.equal('Player, sector 1, no bet');
    expect(boxes[4]!.getAttribute('aria-label')).to.equal('Banker, sector 2, no bet');
    expect(boxes.every((b) => b.tagName === 'BUTTON')).to.equal(true);
    // Left to right on screen too (sector centres increase in x).
    const xs = [0, 3, 6, 9, 12].map((i) => boxes[i]!.getBoundingClientRect().x);
    expect([...xs].sort((a, b) => a - b)).to.deep.equal(xs);
  });

  it('offers the room chips and the actions as real buttons with names', async () => {
    const { el } = await mountTable({ attrs: { room: 'hall-2' } });
    const chips = [...shadow(el).querySelectorAll<HTMLButtonElement>('.chip')];
    expect(chips.map((c) => Number(c.dataset.value))).to.deep.equal([...ROOMS['hall-2'].limits.chips]);
    expect(chips[0]!.getAttribute('aria-label')).to.equal('Chip €1.00');
    expect(chips[0]!.getAttribute('aria-pressed')).to.equal('false');
    const names = [...shadow(el).querySelectorAll<HTMLButtonElement>('[data-action]')].map((b) => b.textContent.trim());
    expect(names).to.deep.equal(['Undo', 'Clear', 'Double', 'Repeat', 'Repeat and deal', 'Deal']);
    expect(shadow(el).querySelector('[part="balance"] output')!.textContent).to.equal('€1,000.00');
  });

  it('puts the scene canvas under the buttons, hidden from assistive technology', async () => {
    const { el, scene } = await mountTable();
    await until(() => shadow(el).querySelector('canvas'), 'the canvas');
    const canvas = shadow(el).querySelector('canvas')!;
    expect(canvas).to.equal(scene!.canvas);
    expect(canvas.getAttribute('aria-hidden')).to.equal('true');
    expect(canvas.closest('[aria-hidden="true"]')).to.not.equal(null);
    expect(scene!.called('resize').length).to.be.greaterThan(0);
    const stage = shadow(el).querySelector('.stage')!.getBoundingClientRect();
    const [w, h] = scene!.called('resize').at(-1) as [number, number];
    expect(Math.round(w)).to.equal(Math.round(stage.width));
    expect(Math.round(h)).to.equal(Math.round(stage.height));
    expect(scene!.options.labels.banker).to.equal('Banker');
    expect(scene!.options.limitsText).to.equal('€0.10 – €10.00');
  });

  it("a new room opens a new session with that room's limits and chips", async () => {
    const { el, worker, events } = await mountTable();
    el.placeBet(0, 'player');
    el.setAttribute('room', 'vip');
    // A bet on the felt: the table asks before it leaves the session (table-play.test.ts); yes.
    await until(() => shadow(el).querySelector('.switch-confirm'), 'the switch question');
    shadow(el).querySelector<HTMLButtonElement>('.switch-confirm')!.click();
    await until(() => el.state === 'ready' && el.sessionId === 's2', 'the VIP session');
    expect(worker.requests('sessions').at(-1)!.body).to.have.keys('room', 'playerKey').and.to.include({ room: 'vip' });
    expect(el.limits).to.deep.equal(ROOMS.vip.limits);
    expect(el.bets).to.deep.equal([]);
    await until(() => shadow(el).querySelector('.chip[data-value="25000"]'), 'the VIP chips');
    expect(events.filter((e) => e.type === 'pb-ready')).to.have.length(2);
  });

  it('keeps working without a scene (no WebGL) and says so with pb-error', async () => {
    const { el, events } = await mountTable({ scene: 'none' });
    expect(el.state).to.equal('ready');
    expect(events.some((e) => e.type === 'pb-error' && e.detail.code === 'scene_unavailable')).to.equal(true);
  });

  it('defines nothing global but the element', async () => {
    const { el } = await mountTable();
    expect(customElements.get('punto-banco-table')).to.equal(el.constructor);
    // Lit's own version/metadata registries are Lit's business; nothing of ours (or Pixi's) leaks.
    const lits = ['litElementVersions', 'litHtmlVersions', 'reactiveElementVersions', 'litPropertyMetadata'];
    expect(Object.keys(window).filter((k) => /punto|banco|i18n|pixi|^lit|table/i.test(k) && !lits.includes(k))).to.deep.equal([]);
  });
});
