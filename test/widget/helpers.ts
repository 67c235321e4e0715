/**
 * Shared by the element tests: mounting <punto-banco-table> against the fake Worker, a fake scene
 * that records what the element asks of it, and small waiting/querying helpers.
 */
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import '../../widget/index.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import type { SceneOptions, TableScene } from '../../widget/scene/index.ts';
import type { Box } from '../../shared/table.ts';
import type { Receipt, SignedRequest, Signed, StartRequest } from '../../shared/fairness/index.ts';
import { FakeWorker, type FakeRequest } from './fake-worker.ts';

export { FakeWorker };

/** The client seed and cut of a start request the fake received (inside the player's signed request). */
export function startChoice(r: FakeRequest): { clientSeed: string; cut: number } {
  const { clientSeed, cut } = (r.body as { request: SignedRequest<StartRequest> }).request.body;
  return { clientSeed, cut };
}

/** A SpeechSynthesisUtterance that only keeps what it was given (for a fake speechSynthesis). */
export class FakeUtterance {
  lang = '';
  rate = 1;
  volume = 1;
  voice: unknown = null;
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** A scene that draws nothing and resolves every animation at once; it logs each call. */
export class FakeScene implements TableScene {
  readonly canvas = document.createElement('canvas');
  readonly calls: { name: string; args: unknown[] }[] = [];
  options: SceneOptions;
  destroyed = false;
  /** When set, playRound waits for it (to observe the `dealing` state). */
  hold: Promise<void> | null = null;

  constructor(options: SceneOptions) {
    this.options = options;
  }

  #log(name: string, ...args: unknown[]): void {
    this.calls.push({ name, args });
  }

  called(name: string): unknown[][] {
    return this.calls.filter((c) => c.name === name).map((c) => c.args);
  }

  resize(width: number, height: number): void {
    this.#log('resize', width, height);
  }
  setBets(bets: unknown, chips: unknown): void {
    this.#log('setBets', bets, chips);
  }
  setHighlight(spot: unknown): void {
    this.#log('setHighlight', spot);
  }
  setShoe(info: unknown): void {
    this.#log('setShoe', info);
  }
  async playRound(receipt: unknown): Promise<void> {
    this.#log('playRound', receipt);
    if (this.hold) await this.hold;
  }
  async clearRound(): Promise<void> {
    this.#log('clearRound');
  }
  async reshuffle(): Promise<void> {
    this.#log('reshuffle');
  }
  turnCards(card: number | 'all'): void {
    this.#log('turnCards', card);
  }
  setOptions(opts: Partial<SceneOptions>): void {
    this.options = { ...this.options, ...opts };
    this.#log('setOptions', opts);
  }
  setRunning(running: boolean): void {
    this.#log('setRunning', running);
  }
  destroy(): void {
    this.destroyed = true;
    this.#log('destroy');
  }
}

export interface Mounted {
  el: PuntoBancoTable;
  worker: FakeWorker;
  /** The fake scene (undefined with the real one). */
  scene: FakeScene | undefined;
  events: CustomEvent[];
}

export interface MountOptions {
  attrs?: Record<string, string>;
  worker?: FakeWorker;
  /** 'fake' (default) or 'real' (the Pixi scene). */
  scene?: 'fake' | 'real' | 'none';
  width?: number;
  /** Wait for pb-ready (default true). */
  ready?: boolean;
  setup?: (el: PuntoBancoTable) => void;
}

const mounted: HTMLElement[] = [];

/** Puts a table in the page, with the fake Worker as its transport, and waits for pb-ready. */
export async function mountTable(options: MountOptions = {}): Promise<Mounted> {
  const worker = options.worker ?? new FakeWorker();
  const holder = document.createElement('div');
  holder.style.width = `${options.width ?? 760}px`;
  document.body.append(holder);
  mounted.push(holder);
  const el = document.createElement('punto-banco-table');
  const attrs = { endpoint: '/', room: 'hall-1', lang: 'en', currency: 'EUR', ...options.attrs };
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.fetcher = worker.fetch;
  el.autoRetries = 0;
  let scene: FakeScene | undefined;
  if ((options.scene ?? 'fake') === 'fake') {
    el.sceneFactory = async (opts) => (scene = new FakeScene(opts));
  } else if (options.scene === 'none') {
    el.sceneFactory = async () => {
      throw new Error('no scene in this test');
    };
  }
  const events: CustomEvent[] = [];
  for (const name of ['pb-ready', 'pb-bet-change', 'pb-round-settled', 'pb-error']) {
    el.addEventListener(name, (e) => events.push(e as CustomEvent));
  }
  options.setup?.(el);
  const ready = new Promise((resolve) => el.addEventListener('pb-ready', resolve, { once: true }));
  holder.append(el);
  if (options.ready ?? true) {
    await ready;
    await until(() => shadow(el).querySelectorAll('.box').length === 15, 'the 15 boxes to render', 15_000);
  }
  return {
    el,
    worker,
    get scene() {
      return scene;
    },
    events,
  };
}

/** Drags with the real mouse from `from` to `to` (viewport px), through a point between; `up: false` keeps the button down. */
export async function drag(from: [number, number], to: [number, number], up = true): Promise<void> {
  await sendMouse({ type: 'move', position: from });
  await sendMouse({ type: 'down' });
  await sendMouse({ type: 'move', position: [Math.round((from[0] + to[0]) / 2), Math.round((from[1] + to[1]) / 2)] });
  await sendMouse({ type: 'move', position: to });
  if (up) await sendMouse({ type: 'up' });
}

/** Removes every table mounted by this file's tests. */
export function unmountAll(): void {
  for (const holder of mounted.splice(0)) holder.remove();
}

/** After a test with the real mouse: the tables go, and the mouse's buttons and place are reset. */
export async function unmountAllAndResetMouse(): Promise<void> {
  unmountAll();
  await resetMouse();
}

export function shadow(el: Element): ShadowRoot {
  return el.shadowRoot!;
}

/** Waits (polling on animation frames) until `check` holds; fails after `ms`. */
export async function until(check: () => unknown, what = 'a condition', ms = 5000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => requestAnimationFrame(() => r(null)));
  }
}

/** Lets pending promises and one Lit update run. */
export async function settle(el: PuntoBancoTable): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await el.updateComplete;
  }
}

export function boxButton(el: Element, sector: number, box: Box): HTMLButtonElement {
  const b = shadow(el).querySelector<HTMLButtonElement>(`.box[data-sector="${sector}"][data-box="${box}"]`);
  if (!b) throw new Error(`no box ${box} in sector ${sector}`);
  return b;
}

export function chipButton(el: Element, value: number): HTMLButtonElement {
  const b = shadow(el).querySelector<HTMLButtonElement>(`.chip[data-value="${value}"]`);
  if (!b) throw new Error(`no chip ${value}`);
  return b;
}

export function action(el: Element, name: 'undo' | 'clear' | 'double' | 'repeat' | 'deal'): HTMLButtonElement {
  const b = shadow(el).querySelector<HTMLButtonElement>(`[data-action="${name}"]`);
  if (!b) throw new Error(`no ${name} button`);
  return b;
}

/** Centre of an element in viewport CSS pixels (what sendMouse takes), rounded. */
export function centre(target: Element): [number, number] {
  const r = target.getBoundingClientRect();
  return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
}

export function liveText(el: Element): string {
  return shadow(el).querySelector('[role="status"]')!.textContent.trim();
}

export function toastText(el: Element): string {
  return shadow(el).querySelector('.toast')?.textContent?.trim() ?? '';
}

/** Plays `n` rounds (a Banker bet in sector 1 when the felt is empty), collecting the receipts. */
export async function playRounds(el: PuntoBancoTable, n: number): Promise<Signed<Receipt>[]> {
  const receipts: Signed<Receipt>[] = [];
  const take = (e: Event) => receipts.push((e as CustomEvent<Signed<Receipt>>).detail);
  el.addEventListener('pb-round-settled', take);
  try {
    for (let i = 0; i < n; i++) {
      if (el.bets.length === 0) el.placeBet(0, 'banker');
      await el.deal();
      await until(() => el.state === 'settled', `round ${i + 1}`);
    }
  } finally {
    el.removeEventListener('pb-round-settled', take);
  }
  return receipts;
}
