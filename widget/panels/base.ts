/**
 * What every panel shares: the guarded `customElements.define`, the event helper and the theme.
 *
 * The theme is a set of CSS custom properties with defaults, read through `var(--pb-…, default)`,
 * so a host page (or <punto-banco-table>) restyles every panel by setting them on the element or an
 * ancestor; nothing is global. Colours follow the table: deep green felt, gold trim, the casino
 * convention of red Banker, blue Player, green Tie.
 */
import { css } from 'lit';
import { MINOR_UNITS } from '../../shared/table.ts';

/**
 * Defines a custom element once: a second bundle on the same page (two widgets, or the widget and
 * the verify page) must not throw "already defined".
 */
export function defineElement(name: string, ctor: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, ctor);
}

/** Dispatches a typed event that bubbles out of the shadow root, like the platform's own. */
export function emit<T>(target: EventTarget, name: string, detail: T): boolean {
  return target.dispatchEvent(new CustomEvent<T>(name, { detail, bubbles: true, composed: true, cancelable: true }));
}

const UNITS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 3 });

/**
 * How panels show money when the host passes no formatter: currency units with two decimals, three
 * when the amount needs them (a Banker win on 0.10 pays 0.095). Host formatters must keep that third
 * decimal too.
 */
export function defaultFormatAmount(minor: number): string {
  return UNITS.format(minor / MINOR_UNITS);
}

/** Design tokens and the basics of every panel (one CSSResult, shared by all shadow roots). */
export const panelBase = css`
  :host {
    --_bg: var(--pb-panel-bg, #0c3324);
    --_surface: var(--pb-panel-surface, #124531);
    --_surface-2: var(--pb-panel-surface-2, #0f3b2a);
    --_border: var(--pb-panel-border, rgba(212, 175, 55, 0.35));
    --_gold: var(--pb-gold, #e3c15a);
    --_gold-dim: var(--pb-gold-dim, #b4963f);
    --_text: var(--pb-text, #f4eedb);
    --_text-dim: var(--pb-text-dim, #b8c9b8);
    --_banker: var(--pb-banker, #d8343f);
    --_player: var(--pb-player, #2c6fd6);
    --_tie: var(--pb-tie, #1f9d4c);
    --_ok: var(--pb-ok, #4cd07d);
    --_fail: var(--pb-fail, #ff8f86); /* 4.9:1 on the panel green (WCAG AA) */
    --_pending: var(--pb-pending, #e8bf4f);
    --_board: var(--pb-board-bg, #fbf8ef);
    --_board-grid: var(--pb-board-grid, #d6cfbb);
    --_radius: var(--pb-radius, 10px);
    --_font: var(--pb-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_mono: var(--pb-mono, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace);
    display: block;
    box-sizing: border-box;
    color: var(--_text);
    background: var(--_bg);
    font-family: var(--_font);
    font-size: var(--pb-font-size, 14px);
    line-height: 1.4;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 12px;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  h2,
  h3 {
    margin: 0 0 8px;
    color: var(--_gold);
    font-weight: 600;
    letter-spacing: 0.02em;
  }
  h2 {
    font-size: 1.15em;
  }
  h3 {
    font-size: 1em;
  }
  p {
    margin: 0 0 8px;
  }
  button {
    font: inherit;
    color: #1d1606;
    background: linear-gradient(#f0d47a, #c9a13c);
    border: 1px solid #8a6d1f;
    border-radius: 8px;
    padding: 7px 14px;
    min-height: 36px;
    cursor: pointer;
    font-weight: 600;
  }
  button.secondary {
    color: var(--_text);
    background: transparent;
    border-color: var(--_border);
    font-weight: 500;
  }
  button:hover:not(:disabled) {
    filter: brightness(1.08);
  }
  button:disabled {
    opacity: 0.55;
    cursor: default;
  }
  button:focus-visible,
  input:focus-visible,
  textarea:focus-visible,
  summary:focus-visible,
  [tabindex]:focus-visible {
    outline: 2px solid var(--_gold);
    outline-offset: 2px;
  }
  input,
  textarea {
    font: inherit;
    color: var(--_text);
    background: var(--_surface-2);
    border: 1px solid var(--_border);
    border-radius: 6px;
    padding: 6px 8px;
  }
  .mono {
    font-family: var(--_mono);
    font-size: 0.92em;
    overflow-wrap: anywhere;
  }
  .dim {
    color: var(--_text-dim);
  }
  .sr-only {
    position: absolute !important;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
  .ok {
    color: var(--_ok);
  }
  .fail {
    color: var(--_fail);
  }
  .pending {
    color: var(--_pending);
  }
`;
