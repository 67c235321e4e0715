/** Wallet mode's own styles: "payout pending" beside the balance, the reality check and the session's end over the felt. */
import { css } from 'lit';

export const walletStyles = css`
  /* "Payout pending" takes a row of its own under the meters: it never squeezes the balance or the bet. */
  .meters:has(> .meter.pending) {
    flex-wrap: wrap;
    row-gap: 2px;
  }
  .meter.pending {
    order: 10;
    flex-basis: 100%;
    display: flex;
    align-items: baseline;
    gap: 8px;
  }
  .meter.pending .label {
    white-space: normal;
  }
  .meter.pending output {
    font-size: 14px;
    color: var(--pb-pending, #e8bf4f);
  }
  /* The reality check and the session's end: dialogs over the felt (dialog.ts), above the switch question. */
  .wallet-screen {
    z-index: 7;
    max-height: 92%;
    overflow: auto;
    box-sizing: border-box;
    padding: 16px 18px;
  }
  .wallet-screen h2 {
    font-size: 17px;
  }
  .wallet-screen p {
    margin: 0 0 10px;
    font-size: 14px;
    line-height: 1.4;
  }
  .wallet-screen p.fine {
    font-size: 12.5px;
    color: var(--pb-muted);
  }
  .wallet-screen dl {
    display: grid;
    grid-template-columns: auto auto;
    gap: 4px 16px;
    margin: 0 0 14px;
  }
  .wallet-screen dt {
    color: var(--pb-muted);
    font-size: 13px;
  }
  .wallet-screen dd {
    margin: 0;
    text-align: end;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
    color: var(--pb-gold);
  }
  .wallet-screen .reality-continue,
  .back-to-casino {
    border-color: var(--pb-gold);
    background: var(--pb-gold);
    color: #1b1406;
    text-decoration: none;
    display: inline-flex;
    align-items: center;
  }
`;
