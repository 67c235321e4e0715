/**
 * The felt's DOM controls: the bet boxes (over the Pixi felt, or drawing it themselves on the plain
 * felt when there is no WebGL), the plain felt's round, the chip tray and the dragged chip.
 */
import { css, unsafeCSS } from 'lit';
import { CHIP_TONES, css as hex } from '../scene/palette.ts';

/**
 * The tray's chip colours are the felt's (palette.ts): one palette, read by both. The `--pb-chip-N`
 * defaults live here, not in the loader (the loading overlay shows no chips); a page's own value
 * on the element still wins over `:host`.
 */
const chipDefaults = unsafeCSS(`:host { ${CHIP_TONES.map((tone, i) => `--pb-chip-${i + 1}: ${hex(tone.base)};`).join(' ')} }`);

/** Each tray chip's ink, the felt's (palette.ts); `data-tone` is the chip's rank, 1-based. */
const chipInks = unsafeCSS(
  CHIP_TONES.map((tone, i) => `.chip[data-tone='${i + 1}'] { --chip: var(--pb-chip-${i + 1}); --chip-ink: ${hex(tone.text)}; }`).join('\n'),
);

export const feltControlStyles = css`
  ${chipDefaults}
  .boxes,
  .tray {
    position: absolute;
    inset: 0;
    pointer-events: none;
  }
  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
  }
  button:focus-visible {
    outline: 3px solid var(--pb-focus-ring);
    outline-offset: 2px;
  }
  button[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.45;
  }
  .box {
    position: absolute;
    pointer-events: auto;
    margin: 0;
    padding: 0;
    border: 0;
    border-radius: 12px;
    background: transparent;
    touch-action: none;
    transition: background-color 120ms ease, box-shadow 120ms ease;
  }
  /* The scene glows the printed box on hover and drag-over; without a scene the button shows it. */
  :host(:not([data-scene])) .box:hover,
  :host(:not([data-scene])) .box.drop {
    background: rgb(255 240 190 / 10%);
    box-shadow: inset 0 0 0 2px rgb(255 230 150 / 45%);
  }
  /* The plain felt (no WebGL, or waiting for a WebGL slot): the buttons draw the boxes and bets. */
  .plain {
    display: none;
  }
  :host([data-plain]) .box {
    background: rgb(255 255 255 / 4%);
    box-shadow: inset 0 0 0 1px rgb(216 180 90 / 55%);
  }
  :host([data-plain]) .plain {
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 3px;
    height: 100%;
    pointer-events: none;
  }
  .plain-name {
    font-family: Georgia, 'Times New Roman', serif;
    font-weight: 700;
    font-size: clamp(9px, 1.5cqi, 15px);
    letter-spacing: 0.08em;
    text-transform: uppercase;
  }
  .box[data-box='player'] .plain-name {
    color: #8fc3ff;
  }
  .box[data-box='banker'] .plain-name {
    color: #ff9c8f;
  }
  .box[data-box='tie'] .plain-name {
    color: #f3d77a;
  }
  /* With a bet, the name moves up and the amount sits under it (.plain-stack, the same rotated box). */
  :host([data-plain]) .box.bet .plain-name {
    transform: translateY(-0.7em);
  }
  .plain-stack {
    display: none;
  }
  :host([data-plain]) .plain-stack {
    position: absolute;
    display: flex;
    align-items: center;
    justify-content: center;
    padding-top: 1.6em;
    box-sizing: border-box;
    pointer-events: none;
  }
  .plain-bet {
    padding: 1px 7px;
    border-radius: 999px;
    background: var(--pb-gold);
    color: #1b1408;
    font-weight: 800;
    font-size: clamp(9px, 1.3cqi, 13px);
  }
  .plain-round {
    display: none;
  }
  :host([data-plain]) .plain-round {
    display: block;
    position: absolute;
    inset: 0;
    pointer-events: none;
  }
  .plain-hand,
  .plain-result {
    position: absolute;
    box-sizing: border-box;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 6px;
  }
  .plain-hand {
    border: 1px solid rgb(216 180 90 / 45%);
    border-radius: 10px;
  }
  .plain-hand-name {
    font-family: Georgia, 'Times New Roman', serif;
    font-weight: 700;
    letter-spacing: 0.1em;
    text-transform: uppercase;
    font-size: clamp(10px, 1.6cqi, 16px);
  }
  .plain-hand.player .plain-hand-name {
    color: #8fc3ff;
  }
  .plain-hand.banker .plain-hand-name {
    color: #ff9c8f;
  }
  .plain-cards {
    display: flex;
    gap: 4px;
  }
  .plain-card {
    min-width: 1.9em;
    padding: 0.35em 0.3em;
    border-radius: 5px;
    background: #fbf8f0;
    color: #1c1c1c;
    font-weight: 800;
    font-size: clamp(11px, 1.9cqi, 20px);
    text-align: center;
    box-shadow: 0 2px 4px rgb(0 0 0 / 40%);
  }
  .plain-card.red {
    color: #c0262d;
  }
  .plain-result {
    border-radius: 999px;
    background: rgb(0 0 0 / 55%);
    border: 1px solid var(--pb-gold);
    color: var(--pb-text);
    font-weight: 700;
    font-size: clamp(11px, 1.6cqi, 16px);
  }
  .box:focus-visible {
    outline-offset: -3px;
    box-shadow: 0 0 0 6px rgb(255 226 138 / 35%);
  }
  .box[aria-disabled='true'] {
    opacity: 1;
  }
  .tray .chips {
    position: absolute;
    display: flex;
    align-items: center;
    justify-content: center;
    gap: clamp(6px, 1.4cqi, 14px);
    pointer-events: auto;
  }
  .chip {
    --chip: var(--pb-chip-1);
    --chip-ink: #1b1b1b;
    position: relative;
    flex: none;
    width: var(--chip-size, 52px);
    height: var(--chip-size, 52px);
    border-radius: 50%;
    border: 0;
    padding: 0;
    color: var(--chip-ink);
    font-weight: 800;
    font-size: calc(var(--chip-size, 52px) * 0.27);
    letter-spacing: -0.02em;
    background:
      radial-gradient(circle, var(--chip) 0 52%, transparent 53%),
      repeating-conic-gradient(from 8deg, #fff 0 12deg, var(--chip) 12deg 45deg);
    box-shadow:
      inset 0 0 0 calc(var(--chip-size, 52px) * 0.08) var(--chip),
      inset 0 0 0 calc(var(--chip-size, 52px) * 0.1) rgb(0 0 0 / 25%),
      0 3px 0 rgb(0 0 0 / 35%),
      0 6px 12px rgb(0 0 0 / 35%);
    touch-action: none;
    transition: transform 120ms ease, box-shadow 120ms ease;
  }
  .chip::after {
    content: '';
    position: absolute;
    inset: 22%;
    border-radius: 50%;
    border: 1.5px dashed color-mix(in srgb, var(--chip-ink) 45%, transparent);
  }
  .chip:hover {
    transform: translateY(-3px);
  }
  .chip[aria-pressed='true'] {
    transform: translateY(-6px);
    box-shadow:
      inset 0 0 0 calc(var(--chip-size, 52px) * 0.08) var(--chip),
      inset 0 0 0 calc(var(--chip-size, 52px) * 0.1) rgb(0 0 0 / 25%),
      0 0 0 3px var(--pb-gold),
      0 0 18px 4px rgb(255 215 120 / 55%);
  }
  ${chipInks}
  .ghost {
    display: grid;
    place-content: center;
    position: absolute;
    left: 0;
    top: 0;
    pointer-events: none;
    z-index: 5;
    opacity: 0.9;
    --chip-size: 46px;
  }
`;
