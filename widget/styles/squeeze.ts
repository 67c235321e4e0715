/**
 * The squeeze's controls over the felt (squeeze-input.ts): a transparent button over each card
 * waiting to be peeled, and the Reveal button in the result banner's place. While a card waits the
 * host carries `data-squeezing`: the canvas and the cards then take no touch gesture (no scroll, no
 * zoom), so a finger's drag peels the card.
 */
import { css } from 'lit';

export const squeezeStyles = css`
  .squeeze {
    position: absolute;
    inset: 0;
    pointer-events: none;
  }
  :host([data-squeezing]) canvas,
  .squeeze-card {
    touch-action: none;
  }
  .squeeze-card {
    position: absolute;
    pointer-events: auto;
    margin: 0;
    padding: 0;
    border: 0;
    border-radius: 6px;
    background: transparent;
    cursor: grab;
    -webkit-user-select: none;
    user-select: none;
  }
  .squeeze-card:active {
    cursor: grabbing;
  }
  .squeeze-reveal {
    position: absolute;
    pointer-events: auto;
    transform: translate(-50%, -50%);
    padding: 6px 18px;
    border: 1px solid var(--pb-gold);
    border-radius: 999px;
    background: var(--pb-button);
    color: var(--pb-button-text);
    font-weight: 700;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    box-shadow: 0 3px 0 rgb(0 0 0 / 40%);
    white-space: nowrap;
  }
`;
