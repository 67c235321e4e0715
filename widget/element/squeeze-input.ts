/**
 * The squeeze's input (the `squeeze` attribute; the peel itself is the scene's, scene/squeeze.ts):
 * a transparent button over each card waiting to be turned — drag it to peel the card (pointer
 * events: mouse, touch, pen), tap it or press Enter or Space on it to turn it — and a Reveal button in
 * the result banner's place (empty until the cards are turned) that turns them all. Nothing here
 * renders while no card waits, so a table without the squeeze is unchanged.
 */
import { html, type LitElement, nothing, type TemplateResult } from 'lit';
import type { Rect } from '../layout.ts';
import type { SqueezeCard, TableScene } from '../scene/types.ts';
import { cssProps } from './css-props.ts';

/** A pointer that moves less than this (CSS px) between down and up is a tap. */
const TAP_SLOP = 6;

/** What the squeeze input needs of its table. */
export interface SqueezeLink {
  scene(): TableScene | null;
  /** Where the result banner shows (the Reveal button's place), or null before the first layout. */
  result(): Rect | null;
  t(key: string, values?: Record<string, string | number>): string;
  announce(text: string): void;
}

export class SqueezeInput {
  readonly #host: LitElement;
  readonly #link: SqueezeLink;
  /** The cards waiting now, as the scene last told. */
  #cards: readonly SqueezeCard[] = [];
  /** The pointer peeling a card: where it went down (table px), and whether it moved past a tap. */
  #drag: { pointer: number; card: number; from: { x: number; y: number }; moved: boolean } | null = null;
  /** The last pointer went down and moved (a drag): the click that follows it is not a tap. */
  #dragged = false;

  constructor(host: LitElement, link: SqueezeLink) {
    this.#host = host;
    this.#link = link;
  }

  /** The scene's news: these cards wait now. A squeeze beginning is said in the live region. */
  waiting(cards: readonly SqueezeCard[]): void {
    if (cards.length > 0 && this.#cards.length === 0) this.#link.announce(this.#link.t('squeeze.start'));
    this.#cards = cards;
    // The dragged card turned (past the threshold): the drag is over.
    if (this.#drag && !cards.some((c) => c.card === this.#drag?.card)) {
      this.#dragged = this.#drag.moved;
      this.#drag = null;
    }
    // The canvas takes no touch gesture (scroll, zoom) while a card can be peeled (styles/squeeze.ts).
    this.#host.toggleAttribute('data-squeezing', cards.length > 0);
    this.#host.requestUpdate();
  }

  /** The pointer's place on the stage (table px). */
  #at(e: PointerEvent): { x: number; y: number } {
    const stage = this.#host.renderRoot.querySelector('.stage')?.getBoundingClientRect();
    return { x: e.clientX - (stage?.left ?? 0), y: e.clientY - (stage?.top ?? 0) };
  }

  #pointer(e: PointerEvent, card: number): void {
    const scene = this.#link.scene();
    if (!scene) return;
    if (e.type === 'pointerdown') {
      if (e.button !== 0 || this.#drag) return;
      (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
      e.preventDefault();
      this.#drag = { pointer: e.pointerId, card, from: this.#at(e), moved: false };
      this.#dragged = false;
      return;
    }
    const drag = this.#drag;
    if (!drag || drag.pointer !== e.pointerId) return;
    const to = this.#at(e);
    drag.moved ||= Math.hypot(to.x - drag.from.x, to.y - drag.from.y) > TAP_SLOP;
    if (e.type === 'pointermove') {
      if (drag.moved) scene.peelCard?.(drag.card, drag.from, to, false);
      return;
    }
    this.#drag = null;
    this.#dragged = drag.moved;
    // Let go: past the threshold the card turned already; short of it the corner falls back. A cancel drops it.
    if (drag.moved) scene.peelCard?.(drag.card, drag.from, e.type === 'pointerup' ? to : drag.from, true);
  }

  /** A tap, or Enter or Space on the focused card (a button's click, detail 0): the card turns. */
  #click(e: MouseEvent, card: number): void {
    if (e.detail > 0 && this.#dragged) return;
    this.#link.scene()?.turnCards?.(card);
    // From the keyboard, the focus goes on to the next card waiting, else to Reveal (a third card may still come).
    if (e.detail === 0) void this.#host.updateComplete.then(() => this.#refocus());
  }

  #refocus(): void {
    const root = this.#host.renderRoot as ShadowRoot;
    if (root.activeElement?.closest('.squeeze')) return;
    root.querySelector<HTMLElement>('.squeeze-card, .squeeze-reveal')?.focus();
  }

  render(): TemplateResult | typeof nothing {
    if (this.#cards.length === 0) return nothing;
    const t = this.#link.t;
    const result = this.#link.result();
    return html`<div class="squeeze">
      ${this.#cards.map((c) => {
        const place = { left: `${c.rect.x}px`, top: `${c.rect.y}px`, width: `${c.rect.w}px`, height: `${c.rect.h}px` };
        const on = (e: PointerEvent): void => this.#pointer(e, c.card);
        return html`<button
          class="squeeze-card"
          data-card=${c.card}
          aria-label=${t('squeeze.card', { hand: t(`box.${c.hand}`), n: c.slot + 1 })}
          ${cssProps(place)}
          @pointerdown=${on}
          @pointermove=${on}
          @pointerup=${on}
          @pointercancel=${on}
          @click=${(e: MouseEvent) => this.#click(e, c.card)}
        ></button>`;
      })}
      <button
        class="squeeze-reveal"
        part="button squeeze-reveal"
        ${cssProps(result ? { left: `${result.x + result.w / 2}px`, top: `${result.y + result.h / 2}px` } : {})}
        @click=${() => this.#link.scene()?.turnCards?.('all')}
      >
        ${t('squeeze.reveal')}
      </button>
    </div>`;
  }
}
