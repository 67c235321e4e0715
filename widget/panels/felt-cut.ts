/**
 * The cut card on the felt (rule text 000: the dealer lets the player cut): the shuffled stack the
 * scene draws and a cut card the player drags into it (pointer) or moves with the arrow keys and
 * puts in with Enter or Space. The cut sent is where the card was dropped, kept inside the shoe's
 * cut range (shoeCutRange: the Worker's). Moving the card moves the default the fairness panel
 * shows (the panels' controller owns that, drawer-controller.ts), so a Deal without a drop cuts
 * where the card stands.
 */
import type { Rect } from '../layout.ts';
import type { ShoeStartChoice, ShoeState } from '../session/api-types.ts';
import { clampCut, cutAtFraction, shoeCutRange, shoeDecks } from '../session/shoe-start.ts';
import { CARDS_PER_DECK } from '../../shared/cards.ts';
import type { TableScene } from '../scene/types.ts';
import type { ShoeStartDetail } from './fairness.ts';
import type { PanelsHost, PanelsLink } from './drawer-link.ts';

/** What the felt's cut card needs of the panels' controller. */
export interface FeltCutOwner {
  link: PanelsLink;
  host: PanelsHost;
  /** A shoe start or end is on its way (the card does not move meanwhile). */
  busy(): boolean;
  /** The seed and cut the fairness panel shows for `shoe`, when valid. */
  shown(shoe: ShoeState): ShoeStartDetail | null;
  /** The random default for `shoe` (made once). */
  proposal(shoe: ShoeState): ShoeStartDetail;
  /** Moves the default the panel shows. */
  propose(shoe: number, choice: ShoeStartDetail): void;
  /** The seed and cut the shoe would start with now (null: a seed the engine refuses). */
  choiceFor(shoe: ShoeState): ShoeStartChoice | null;
  cutAndStart(choice: ShoeStartDetail): void;
}

export class FeltCut {
  readonly #o: FeltCutOwner;
  /** The cut card, once the player moved it (a cut of this shoe); `held` while being moved, `placed` once dropped. */
  #cut: { shoe: number; cut: number; state: 'hover' | 'held' | 'placed' } | null = null;
  /** The pointer that holds the card, if any. */
  #pointer: number | null = null;
  /** What the scene was last told of the offer (its scene and view), so it is told again only on a change. */
  #shown: { scene: TableScene | null; key: string } = { scene: null, key: 'null' };

  constructor(owner: FeltCutOwner) {
    this.#o = owner;
  }

  /** The cut where the player left the card for shoe `number`, or null. */
  cutOf(number: number): number | null {
    return this.#cut?.shoe === number ? this.#cut.cut : null;
  }

  /** A cut changed in the panel is newer than the card: the card follows the panel. */
  panelCut(shoe: number, cut: number): void {
    if (this.#cut?.shoe === shoe && this.#cut.cut !== cut) this.#cut = null;
  }

  /** A new session: no card moved. */
  reset(): void {
    this.#cut = null;
    this.#pointer = null;
  }

  /** A start that failed: a card put in goes back to hovering. */
  startFailed(): void {
    if (this.#cut?.state === 'placed') this.#cut = { ...this.#cut, state: 'hover' };
  }

  /** The shoe waiting for its cut, when the felt's cut card may move now (not while a start or a round runs). */
  #cuttable(): ShoeState | null {
    const shoe = this.#o.link.shoe();
    const state = this.#o.host.state;
    if (!shoe || shoe.status !== 'awaiting-start' || this.#o.busy() || !(state === 'ready' || state === 'settled')) return null;
    return shoe;
  }

  /** Where the felt's cut card stands for `shoe`: moved by the player, else the panel's or the default cut. */
  value(shoe: ShoeState): { value: number; min: number; max: number; size: number; state: 'hover' | 'held' | 'placed' } {
    const range = shoeCutRange(shoe);
    const size = shoeDecks(shoe) * CARDS_PER_DECK;
    const felt = this.#cut?.shoe === shoe.number ? this.#cut : null;
    const shown = this.#o.shown(shoe);
    const value = felt?.cut ?? shown?.cut ?? this.#o.proposal(shoe).cut;
    return { value, ...range, size, state: felt?.state ?? 'hover' };
  }

  /** Moves the felt's cut card to `cut` (kept in range); the default the panel shows moves with it. */
  #move(shoe: ShoeState, cut: number, state: 'hover' | 'held'): void {
    const { min, max } = shoeCutRange(shoe);
    const value = clampCut(cut, min, max);
    const shown = this.#o.shown(shoe);
    const seed = shown?.clientSeed ?? this.#o.proposal(shoe).clientSeed;
    if (this.#cut?.shoe === shoe.number && this.#cut.cut === value && this.#cut.state === state) return;
    this.#cut = { shoe: shoe.number, cut: value, state };
    this.#o.propose(shoe.number, { clientSeed: seed, cut: value });
    this.#o.host.requestUpdate();
  }

  /** The card is held (focused by the keys) or let go. */
  hold(held: boolean): void {
    const shoe = this.#cuttable();
    if (!shoe || this.#pointer !== null) return;
    this.#move(shoe, this.value(shoe).value, held ? 'held' : 'hover');
  }

  /** The card is put into the stack at `cut`: the shoe starts with that cut (the shuffle and cut then play on the felt). */
  #drop(shoe: ShoeState, cut: number): void {
    this.#move(shoe, cut, 'hover');
    const choice = this.#o.choiceFor(shoe);
    if (!choice) return; // a seed the engine refuses: the panel says why
    this.#cut = { shoe: shoe.number, cut: choice.cut, state: 'placed' };
    this.#o.cutAndStart(choice);
  }

  /** The cut at the pointer's x over the drawn stack (its place in the slider). */
  #cutAtPointer(shoe: ShoeState, e: PointerEvent): number {
    const slider = e.currentTarget as HTMLElement;
    const place = (slider.querySelector('.cut-place') ?? slider).getBoundingClientRect();
    const { size } = this.value(shoe);
    return cutAtFraction((e.clientX - place.left) / Math.max(1, place.width), size, shoeCutRange(shoe));
  }

  /** Drag: down picks the card up where the pointer is, it follows the pointer, up drops it in there (a cancel does not). */
  pointer(e: PointerEvent): void {
    const shoe = this.#cuttable();
    if (!shoe) return;
    const slider = e.currentTarget as HTMLElement;
    if (e.type === 'pointerdown') {
      if (e.button !== 0 || this.#pointer !== null) return;
      this.#pointer = e.pointerId;
      slider.setPointerCapture?.(e.pointerId);
      slider.focus({ preventScroll: true });
      e.preventDefault();
      this.#move(shoe, this.#cutAtPointer(shoe, e), 'held');
      return;
    }
    if (e.pointerId !== this.#pointer) return;
    if (e.type === 'pointermove') {
      this.#move(shoe, this.#cutAtPointer(shoe, e), 'held');
      return;
    }
    this.#pointer = null;
    if (e.type === 'pointerup') this.#drop(shoe, this.#cutAtPointer(shoe, e));
    else this.#move(shoe, this.value(shoe).value, 'hover');
  }

  /** Keys on the focused card: arrows move it a card, Page Up/Down a deck, Home/End to the ends; Enter or Space puts it in. */
  key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const shoe = this.#cuttable();
    if (!shoe) return;
    const { value, min, max } = this.value(shoe);
    const step: Record<string, number> = {
      ArrowLeft: -1,
      ArrowDown: -1,
      ArrowRight: 1,
      ArrowUp: 1,
      PageDown: -CARDS_PER_DECK,
      PageUp: CARDS_PER_DECK,
      Home: min - value,
      End: max - value,
    };
    if (e.key in step) this.#move(shoe, value + step[e.key]!, 'held');
    else if (e.key === 'Enter' || e.key === ' ') this.#drop(shoe, value);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  /**
   * Tells the scene where the offer's stack is (the DOM's `.cut-place`, in table px) and where its
   * card stands; nothing once the offer is gone. Only on a change (or a new scene).
   */
  sync(): void {
    const scene = this.#o.link.scene();
    const place = this.#o.host.renderRoot.querySelector<HTMLElement>('.invite .cut-place');
    const mat = place?.parentElement;
    const shoe = this.#o.link.shoe();
    let view: Parameters<NonNullable<TableScene['offerCut']>>[0] = null;
    if (scene && place && mat && shoe?.status === 'awaiting-start') {
      const c = scene.canvas.getBoundingClientRect();
      const round = (v: number): number => Math.round(v * 10) / 10;
      const at = (e: Element): Rect => {
        const r = e.getBoundingClientRect();
        return { x: round(r.left - c.left), y: round(r.top - c.top), w: round(r.width), h: round(r.height) };
      };
      const { value, size, state } = this.value(shoe);
      const p = at(place);
      if (p.w > 0 && p.h > 0) view = { place: p, mat: at(mat), fraction: value / size, state };
    }
    const key = JSON.stringify(view);
    if (scene === this.#shown.scene && key === this.#shown.key) return;
    this.#shown = { scene, key };
    scene?.offerCut?.(view);
  }
}
