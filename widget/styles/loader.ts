/**
 * The styles the loader needs before anything else arrives: the host's custom properties, the
 * table frame, the felt and the loading overlay. The rest of the table's styles (table.ts) load
 * lazily with the view.
 */
import { css } from 'lit';

export const loaderStyles = css`
  :host {
    --pb-felt: #0d5c3b;
    --pb-felt-deep: #063722;
    --pb-rail: #3a1f12;
    --pb-rail-light: #6b3a22;
    --pb-gold: #d8b45a;
    --pb-text: #f6efdc;
    --pb-muted: #c9c0a6;
    --pb-console: #151312;
    --pb-button: #2a2622;
    --pb-button-text: #f6efdc;
    --pb-deal: #c9a13b;
    --pb-deal-text: #1b1406;
    --pb-danger: #e0604f;
    --pb-focus-ring: #ffe28a;
    --pb-radius: 18px;
    --pb-font: 'Segoe UI', system-ui, -apple-system, 'Helvetica Neue', Arial, sans-serif;
    display: block;
    container-type: inline-size;
    font-family: var(--pb-font);
    color: var(--pb-text);
    -webkit-tap-highlight-color: transparent;
  }
  /*
   * Host pages we do not control: their rules cannot reach inside the shadow tree, but inherited
   * properties flow in through the element, and a reset such as "* { all: unset !important }"
   * hits the element itself. Between the page and the shadow tree an !important declaration of the
   * shadow tree wins, so what the table's text and layout inherit is pinned here. Not pinned: the
   * element's display, size and margins (the page may place, size or hide the table) and
   * visibility. Theme with the --pb-* custom properties, which no reset touches.
   */
  :host {
    container-type: inline-size !important;
    font-family: var(--pb-font) !important;
    font-size: var(--pb-font-size, 16px) !important;
    font-style: normal !important;
    font-weight: 400 !important;
    font-variant: normal !important;
    line-height: normal !important;
    color: var(--pb-text) !important;
    letter-spacing: normal !important;
    word-spacing: normal !important;
    text-align: start !important;
    text-indent: 0 !important;
    text-transform: none !important;
    text-shadow: none !important;
    white-space: normal !important;
    cursor: auto !important;
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  .table {
    position: relative;
    border-radius: var(--pb-radius);
    background: var(--pb-console);
    box-shadow: 0 18px 50px rgb(0 0 0 / 45%), inset 0 0 0 1px rgb(255 255 255 / 6%);
    overflow: hidden;
    user-select: none;
    -webkit-user-select: none;
  }
  .stage {
    position: relative;
    width: 100%;
    aspect-ratio: 16 / 10;
    background:
      radial-gradient(ellipse at 50% 35%, color-mix(in srgb, var(--pb-felt) 85%, white) 0%, var(--pb-felt) 45%, var(--pb-felt-deep) 100%);
    overflow: hidden;
    touch-action: manipulation;
  }
  @container (max-width: 640px) {
    .stage {
      aspect-ratio: 3 / 4;
    }
  }
  .canvas-host,
  .canvas-host > canvas {
    position: absolute;
    inset: 0;
    /* The canvas always covers the stage, whatever size its drawing buffer has at the moment. */
    width: 100% !important;
    height: 100% !important;
    display: block;
  }
  .loader {
    position: absolute;
    inset: 0;
    z-index: 7;
    display: grid;
    place-content: center;
    justify-items: center;
    gap: 14px;
    background: radial-gradient(ellipse at 50% 40%, var(--pb-felt) 0%, var(--pb-felt-deep) 100%);
    color: var(--pb-muted);
    font-size: 15px;
    letter-spacing: 0.04em;
  }
  .loader .mark {
    font-family: Georgia, 'Times New Roman', serif;
    font-size: 26px;
    letter-spacing: 0.3em;
    text-transform: uppercase;
    color: var(--pb-gold);
  }
  .spinner {
    width: 44px;
    height: 44px;
    border-radius: 50%;
    border: 4px solid rgb(255 255 255 / 15%);
    border-top-color: var(--pb-gold);
    animation: spin 0.9s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  /*
   * Reduced motion: animations end at once and nothing transitions. Not a short transition-duration:
   * transition-property is "all" by default, so that would make every change of every element a
   * transition, the felt's fitted height too, and a transition waits for the element's next paint
   * to start: a table out of view kept its height from before the fit until seen, and moved the page.
   */
  :host([data-reduced-motion]) *,
  :host([data-reduced-motion]) *::before,
  :host([data-reduced-motion]) *::after {
    animation-duration: 0.01ms !important;
    animation-iteration-count: 1 !important;
    transition: none !important;
  }
`;
