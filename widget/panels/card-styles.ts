/** Styles of `cardTemplate` (card-face.ts): a small white card with rank and suit, red or black. */
import { css } from 'lit';

export const cardStyles = css`
  .card {
    display: inline-flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    width: 1.75em;
    height: 2.4em;
    border-radius: 0.25em;
    background: #fffdf7;
    border: 1px solid #cfc6ad;
    box-shadow: 0 1px 2px rgba(0, 0, 0, 0.35);
    font-weight: 700;
    line-height: 1;
    font-size: 0.95em;
    font-variant-numeric: tabular-nums;
  }
  .card .rank {
    font-size: 0.92em;
    letter-spacing: -0.04em;
  }
  .card .suit {
    font-size: 1em;
    margin-top: 0.08em;
  }
  .card.red {
    color: #c8202c;
  }
  .card.black {
    color: #1b1b1b;
  }
`;
