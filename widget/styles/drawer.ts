/**
 * The panels' drawer inside the table (panels/drawer-view.ts draws it): the strip of launchers,
 * the pane in its three layouts (under the felt, beside it, a bottom sheet) and the panels' theme.
 */
import { css } from 'lit';
import { visuallyHidden } from './visually-hidden.ts';
import { PANE_BESIDE_MIN_WIDTH } from '../panels/drawer-view.ts';

/** The strip, the pane in its three layouts (under, beside, bottom sheet) and the panels' theme inside the table. */
export const panelsStyles = css`
  .drawer-bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 14px;
    padding: 8px 16px 10px;
    background: var(--pb-console);
    border-top: 1px solid rgb(255 255 255 / 7%);
  }
  .launchers {
    display: flex;
    gap: 6px;
    margin-left: auto;
  }
  /* The roads at a glance take the strip's free room, up to a size that still reads as a glance. */
  .road-glance {
    flex: 1 1 0;
    max-width: 460px;
    margin-left: auto;
    cursor: pointer;
  }
  .launcher {
    position: relative;
    display: inline-flex;
    align-items: center;
    gap: 7px;
    min-height: 38px;
    padding: 6px 14px;
    border-radius: 999px;
    border: 1px solid rgb(216 180 90 / 30%);
    background: transparent;
    color: var(--pb-button-text);
    font-size: 13.5px;
    font-weight: 600;
    letter-spacing: 0.01em;
  }
  .launcher:hover {
    background: rgb(255 255 255 / 6%);
  }
  .launcher[aria-pressed='true'] {
    background: rgb(216 180 90 / 18%);
    border-color: var(--pb-gold);
    color: var(--pb-gold);
  }
  .icon {
    width: 17px;
    height: 17px;
    flex: none;
    fill: none;
    stroke: currentColor;
    stroke-width: 1.6;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  .dot {
    position: absolute;
    top: 3px;
    right: 5px;
    width: 9px;
    height: 9px;
    border-radius: 50%;
    background: var(--pb-gold);
    box-shadow: 0 0 0 3px rgb(216 180 90 / 28%);
  }
  /* The offer of the cut: the words and the choices on their own backs, the stack between them
     drawn by the scene under a transparent slider (the felt shows through). */
  .invite {
    position: absolute;
    z-index: 3;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: safe center;
    gap: 6px;
    box-sizing: border-box;
    padding: 0;
    overflow: hidden;
    container-type: size;
    font-size: 12px;
    line-height: 1.3;
    text-align: center;
    color: var(--pb-text);
  }
  .invite-say {
    box-sizing: border-box;
    max-width: 100%;
    padding: 6px 12px;
    border-radius: 12px;
    border: 1px solid var(--pb-gold);
    background: rgb(8 28 18 / 88%);
    box-shadow: 0 8px 24px rgb(0 0 0 / 40%);
  }
  .cut-felt {
    display: flex;
    flex-direction: column;
    flex: 1 0 auto;
    box-sizing: border-box;
    width: min(100%, 440px);
    min-height: 40px;
    padding: 6px 12px 4px;
    border-radius: 10px;
    cursor: grab;
    touch-action: none;
    user-select: none;
    -webkit-user-select: none;
    outline: none;
  }
  .cut-felt:focus-visible {
    box-shadow: 0 0 0 2px var(--pb-gold);
  }
  .cut-felt[data-state='held'] {
    cursor: grabbing;
  }
  .cut-felt[aria-disabled='true'] {
    cursor: default;
  }
  .cut-place {
    flex: 1 1 30px;
    max-height: 84px;
  }
  /* A short room (a phone held sideways) keeps the stack and the choices: the words go to the
     screen reader only (the slider's name says what to do), the long sentence first. */
  @container (max-height: 159px) {
    .invite-say {
      ${visuallyHidden}
    }
  }
  @container (max-height: 129px) {
    .cut-hint {
      display: none;
    }
    .cut-felt {
      padding-top: 2px;
    }
  }
  /* A narrow room (a small phone upright): the choices in a smaller type, so that each keeps to two lines. */
  @container (max-width: 240px) {
    .invite .invite-cut,
    .invite .invite-random {
      min-height: 30px;
      padding: 3px 6px;
      font-size: 11.5px;
    }
  }
  .cut-hint {
    font-size: 11px;
    line-height: 1.2;
    color: var(--pb-gold);
    text-shadow: 0 1px 2px rgb(0 0 0 / 70%);
  }
  /* Both choices on one row, whatever the width: a long label takes two lines in its button. */
  .invite-actions {
    display: flex;
    justify-content: center;
    gap: 6px;
    width: 100%;
    max-width: 420px;
  }
  .invite .invite-cut,
  .invite-random {
    flex: 1 1 0;
    min-width: 0;
    min-height: 32px;
    padding: 4px 10px;
    font-size: 12.5px;
    line-height: 1.15;
  }
  .invite-random {
    border-radius: 999px;
    border: 1px solid rgb(216 180 90 / 55%);
    background: var(--pb-button);
    color: var(--pb-button-text);
    font-weight: 600;
    font-size: 13px;
  }
  .invite-cut {
    flex: none;
    min-height: 36px;
    padding: 6px 16px;
    border: 0;
    border-radius: 999px;
    background: linear-gradient(180deg, color-mix(in srgb, var(--pb-deal) 80%, white), var(--pb-deal));
    color: var(--pb-deal-text);
    font-weight: 800;
    font-size: 13.5px;
    box-shadow: 0 2px 0 rgb(0 0 0 / 40%);
  }

  /* The pane: a <dialog>. Closed: nothing. Open in the page: under the table (or beside it). */
  dialog.pane {
    --pb-radius: 12px;
    --pb-font-size: 14px;
    box-sizing: border-box;
    margin: 0;
    padding: 0;
    border: 0;
    width: auto;
    max-width: none;
    max-height: none;
    color: var(--pb-text);
    background: var(--pb-console);
    font-family: var(--pb-font);
    user-select: text;
    -webkit-user-select: text;
  }
  dialog.pane:not([open]) {
    display: none;
  }
  dialog.pane[open]:not(:modal) {
    position: static;
    display: block;
    border-top: 1px solid rgb(216 180 90 / 28%);
  }
  .pane-head {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 8px 10px 0 16px;
  }
  .context {
    flex: 1;
    margin: 0;
    font-size: 13px;
    color: var(--pb-muted);
    min-width: 0;
  }
  .pane-close {
    flex: none;
    display: grid;
    place-items: center;
    width: 38px;
    height: 38px;
    margin-left: auto;
    border-radius: 50%;
    border: 1px solid rgb(255 255 255 / 14%);
    background: rgb(255 255 255 / 5%);
    color: var(--pb-text);
  }
  .pane-close svg {
    width: 16px;
    height: 16px;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
  }
  .pane-body {
    padding: 8px 12px 14px;
    max-height: min(720px, 80vh);
    overflow: auto;
    overscroll-behavior: contain;
  }
  .pane-body:focus-visible {
    outline: 2px solid var(--pb-focus-ring);
    outline-offset: -2px;
  }
  .pane-note {
    margin: 10px 4px 4px;
    font-size: 13px;
    line-height: 1.4;
    color: var(--pb-muted);
  }
  .pane-note.failed {
    color: #ffb4a8;
  }
  .fairness-tab[hidden] {
    display: none;
  }
  .shoe-picker {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin: 2px 0 10px;
  }
  .shoe-chip {
    min-height: 32px;
    padding: 4px 12px;
    border-radius: 999px;
    border: 1px solid rgb(255 255 255 / 16%);
    background: transparent;
    color: var(--pb-muted);
    font-size: 13px;
    font-weight: 600;
  }
  .shoe-chip[aria-pressed='true'] {
    color: var(--pb-gold);
    border-color: var(--pb-gold);
    background: rgb(216 180 90 / 14%);
  }
  .pane-body > * + *,
  .fairness-tab > pb-fairness {
    margin-top: 0;
  }

  /* Beside the felt on a wide table: the pane takes a column as tall as the table and scrolls. */
  @container (min-width: ${PANE_BESIDE_MIN_WIDTH}px) {
    :host([data-pane]) .table {
      display: grid;
      grid-template-columns: minmax(0, 1fr) clamp(380px, 36%, 480px);
    }
    :host([data-pane]) .table > :not(.pane) {
      grid-column: 1;
    }
    :host([data-pane]) dialog.pane[open]:not(:modal) {
      grid-column: 2;
      grid-row: 1 / span 3;
      position: relative;
      /* The UA gives an open dialog height: fit-content; its content is absolute, so stretch to the row. */
      height: auto;
      align-self: stretch;
      border-top: 0;
      border-left: 1px solid rgb(216 180 90 / 28%);
    }
    :host([data-pane]) .pane-inner {
      position: absolute;
      inset: 0;
      display: flex;
      flex-direction: column;
    }
    :host([data-pane]) .pane-body {
      flex: 1;
      min-height: 0;
      max-height: none;
    }
  }

  /* A phone: a modal bottom sheet over the page. */
  dialog.pane:modal {
    position: fixed;
    inset: auto 0 0 0;
    width: 100%;
    max-width: 640px;
    max-height: 92dvh;
    margin: 0 auto;
    border-radius: 18px 18px 0 0;
    border-top: 1px solid rgb(216 180 90 / 45%);
    box-shadow: 0 -14px 44px rgb(0 0 0 / 60%);
    animation: sheet-in 220ms ease-out;
  }
  dialog.pane:modal .pane-inner {
    display: flex;
    flex-direction: column;
    max-height: 92dvh;
  }
  dialog.pane:modal .pane-head {
    padding: 10px 10px 6px 10px;
  }
  dialog.pane:modal .pane-body {
    flex: 1;
    min-height: 0;
    max-height: none;
    padding: 6px 8px 18px;
  }
  dialog.pane::backdrop {
    background: rgb(0 0 0 / 55%);
  }
  .sheet-tabs {
    flex: 1;
    margin: 0;
    min-width: 0;
  }
  .sheet-context {
    margin: 0;
    padding: 0 14px 2px;
  }
  @keyframes sheet-in {
    from {
      transform: translateY(40%);
      opacity: 0.4;
    }
  }

  @container (max-width: 640px) {
    .drawer-bar {
      padding: 8px 10px 10px;
    }
    /* An upright phone: no room beside or under the felt; the scoreboard keeps the roads. */
    .road-glance {
      display: none;
    }
    .launchers {
      display: grid;
      grid-template-columns: repeat(4, minmax(0, 1fr));
      width: 100%;
      margin: 0;
    }
    .launcher {
      flex-direction: column;
      justify-content: center;
      gap: 3px;
      min-height: 48px;
      padding: 6px 2px;
      border-radius: 12px;
      font-size: 12px;
    }
    /* The launchers' names only (an unscoped .label cut the meters' names: «ΠΟΝΤΑ…»). */
    .launcher .label {
      max-width: 100%;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .dot {
      top: 5px;
      right: calc(50% - 20px);
    }
  }
  /* A narrow phone: the longest label ("Scoreboard") still fits its quarter of the strip. */
  @container (max-width: 420px) {
    .launcher {
      font-size: 11px;
    }
  }
  /* The sheet's own tabs are laid out like the phone strip whatever the sheet's width. */
  .sheet-tabs {
    display: grid;
    grid-template-columns: repeat(4, minmax(0, 1fr));
    gap: 4px;
  }
  .sheet-tabs .launcher {
    flex-direction: column;
    justify-content: center;
    gap: 2px;
    min-height: 46px;
    padding: 5px 2px;
    border-radius: 12px;
    font-size: 11.5px;
  }
  /* Every tab's whole name shows: a long one ("Scoreboard", "Ιστορικό") may take two lines. */
  .sheet-tabs .launcher .label {
    font-size: 10.5px;
    line-height: 1.1;
    white-space: normal;
    overflow-wrap: anywhere;
    text-overflow: clip;
    text-align: center;
  }
`;
