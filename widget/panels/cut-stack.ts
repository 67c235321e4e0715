/**
 * <pb-cut-stack>: where the player cuts the shuffled stack, as at a real table. A drawing of the
 * stack seen from the side with a gold cut card at the chosen place (click or drag on it), a range
 * slider (the keyboard and screen-reader control) and a number field for an exact card. The value
 * is always kept inside [min, max].
 *
 * @event pb-cut-change - `{ cut }` whenever the player moves the cut.
 */
import { css, html, LitElement, type PropertyValues, svg, type TemplateResult } from 'lit';
import { defineElement, emit, panelBase } from './base.ts';
import { fill, type PanelStrings, panelStrings } from './strings.ts';
import { clampCut, cutAtFraction } from '../session/shoe-start.ts';

export interface CutChangeDetail {
  cut: number;
}

/** Margin of the stack drawing, left and right, in CSS pixels. */
const MARGIN = 18;
const STACK_TOP = 58;
const STACK_H = 34;
const LIFT = 12;

export { clampCut };

export class PbCutStack extends LitElement {
  static override properties = {
    size: { type: Number },
    min: { type: Number },
    max: { type: Number },
    value: { type: Number },
    disabled: { type: Boolean, reflect: true },
    strings: { attribute: false },
  };

  /** Cards in the stack (52 × decks). */
  declare size: number;
  /** Smallest and largest allowed cut (the commitment's cut range). */
  declare min: number;
  declare max: number;
  /** The cut: the top `value` cards go to the bottom. */
  declare value: number;
  declare disabled: boolean;
  declare strings: Partial<PanelStrings> | null;

  #dragging = false;
  /** The drawing is laid out in CSS pixels of the element's width, so nothing is stretched. */
  #width = 600;
  #resize = new ResizeObserver((entries) => {
    const width = Math.round(entries[0]?.contentRect.width ?? 0);
    if (width > 0 && width !== this.#width) {
      this.#width = width;
      this.requestUpdate();
    }
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.#resize.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resize.disconnect();
  }

  constructor() {
    super();
    this.size = 312;
    this.min = 1;
    this.max = 311;
    this.value = 156;
    this.disabled = false;
    this.strings = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('value') || changed.has('min') || changed.has('max')) this.value = clampCut(this.value, this.min, this.max);
  }

  #set(value: number): void {
    const cut = clampCut(value, this.min, this.max);
    if (cut === this.value) return;
    this.value = cut;
    emit<CutChangeDetail>(this, 'pb-cut-change', { cut });
  }

  #fromPointer(event: PointerEvent): void {
    const svgEl = event.currentTarget as SVGSVGElement;
    const box = svgEl.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * this.#width;
    this.#set(cutAtFraction((x - MARGIN) / (this.#width - 2 * MARGIN), this.size, this));
  }

  #down = (event: PointerEvent): void => {
    if (this.disabled) return;
    this.#dragging = true;
    (event.currentTarget as Element).setPointerCapture?.(event.pointerId);
    this.#fromPointer(event);
  };

  #move = (event: PointerEvent): void => {
    if (this.#dragging) this.#fromPointer(event);
  };

  #up = (): void => {
    this.#dragging = false;
  };

  protected override render(): TemplateResult {
    const s = panelStrings(this.strings);
    const size = Math.max(2, this.size);
    return html`
      ${this.#drawing(size, s)}
      <div class="controls">
        <input
          class="range"
          type="range"
          min=${this.min}
          max=${this.max}
          step="1"
          .value=${String(this.value)}
          ?disabled=${this.disabled}
          aria-label=${s.cutValue}
          aria-valuetext=${`${this.value} / ${size}`}
          @input=${(e: Event) => this.#set(Number((e.target as HTMLInputElement).value))}
        />
        <label class="exact">
          <span class="sr-only">${s.cutValue}</span>
          <input
            class="number"
            type="number"
            inputmode="numeric"
            min=${this.min}
            max=${this.max}
            step="1"
            .value=${String(this.value)}
            ?disabled=${this.disabled}
            @change=${(e: Event) => {
              const input = e.target as HTMLInputElement;
              this.#set(Number(input.value));
              input.value = String(this.value);
            }}
          />
        </label>
      </div>
      <p class="hint">${fill(s.cutHint, { cut: this.value })}</p>
    `;
  }

  #drawing(size: number, s: PanelStrings): TemplateResult {
    const w = this.#width;
    const x0 = MARGIN;
    const x1 = w - MARGIN;
    const cx = x0 + (this.value / size) * (x1 - x0);
    const labelX = Math.min(w - 20, Math.max(20, cx));
    // The cards above the cut are lifted, as the player's hand lifts them to put them under.
    return html`<svg
      class="stack"
      viewBox="0 0 ${w} 132"
      aria-hidden="true"
      @pointerdown=${this.#down}
      @pointermove=${this.#move}
      @pointerup=${this.#up}
      @pointercancel=${this.#up}
    >
      <defs>
        <pattern id="edges" width="3.2" height="${STACK_H}" patternUnits="userSpaceOnUse">
          <rect width="3.2" height="${STACK_H}" fill="#f5efdc"></rect>
          <rect width="0.9" height="${STACK_H}" fill="#cdbf9c"></rect>
        </pattern>
        <pattern id="back" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="14" height="14" fill="#8d1c28"></rect>
          <rect width="7" height="7" fill="#a3283a"></rect>
        </pattern>
        <linearGradient id="shade" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#000" stop-opacity="0"></stop>
          <stop offset="1" stop-color="#000" stop-opacity="0.22"></stop>
        </linearGradient>
        <linearGradient id="gold" x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stop-color="#fbe7a1"></stop>
          <stop offset="0.5" stop-color="#e3c15a"></stop>
          <stop offset="1" stop-color="#a98424"></stop>
        </linearGradient>
      </defs>
      <ellipse cx="${w / 2}" cy="${STACK_TOP + STACK_H + 6}" rx="${w / 2 - 8}" ry="7" fill="#000" opacity="0.25"></ellipse>
      ${this.#slab(x0, cx - 3, -LIFT, 'lifted')} ${this.#slab(cx + 3, x1, 0, 'rest')}
      <g class="cut-card">
        <rect x="${cx - 5}" y="14" width="10" height="${STACK_TOP + STACK_H - 10}" rx="2" fill="url(#gold)" stroke="#6f5514" stroke-width="1"></rect>
      </g>
      <text class="cut-label" x="${labelX}" y="10">${this.value}</text>
      <text class="end-label" x="${x0}" y="124" text-anchor="start">${s.stackTop}</text>
      <text class="end-label" x="${x1}" y="124" text-anchor="end">${s.stackBottom}</text>
    </svg>`;
  }

  /** One part of the stack: a top face (the back of the top card) over the cards' edges. */
  #slab(from: number, to: number, dy: number, cls: string) {
    if (to - from < 1) return null;
    const top = STACK_TOP + dy;
    return svg`<g class=${cls}>
      <path d="M ${from + 6} ${top - 10} L ${to - 2} ${top - 10} L ${to} ${top} L ${from} ${top} Z" fill="url(#back)" stroke="#5b1019" stroke-width="0.8"></path>
      <rect x="${from}" y="${top}" width="${to - from}" height="${STACK_H}" fill="url(#edges)" stroke="#9d8e68" stroke-width="0.8"></rect>
      <rect x="${from}" y="${top}" width="${to - from}" height="${STACK_H}" fill="url(#shade)"></rect>
    </g>`;
  }

  static override styles = [
    panelBase,
    css`
      :host {
        border: none;
        padding: 0;
        background: transparent;
      }
      .stack {
        display: block;
        width: 100%;
        height: 132px;
        touch-action: none;
        cursor: ew-resize;
        user-select: none;
      }
      :host([disabled]) .stack {
        cursor: default;
        opacity: 0.7;
      }
      .cut-label {
        fill: var(--_gold);
        font: 700 13px var(--_font);
        text-anchor: middle;
        dominant-baseline: middle;
      }
      .end-label {
        fill: var(--_text-dim);
        font: 12px var(--_font);
      }
      .controls {
        display: flex;
        align-items: center;
        gap: 10px;
        margin-top: 4px;
      }
      .range {
        flex: 1;
        min-width: 0;
        height: 32px;
        accent-color: var(--_gold);
        background: transparent;
        border: none;
        padding: 0;
      }
      .number {
        width: 5.5em;
        font-variant-numeric: tabular-nums;
      }
      .hint {
        margin: 4px 0 0;
        color: var(--_text-dim);
        font-size: 0.9em;
      }
    `,
  ];
}

defineElement('pb-cut-stack', PbCutStack);

declare global {
  interface HTMLElementTagNameMap {
    'pb-cut-stack': PbCutStack;
  }
}
