/**
 * The dialogs over the felt, one card in its middle: the room or mode switch question (console.ts)
 * and wallet mode's reality check and session's end (wallet.ts). Each keeps its own layer,
 * padding and type sizes there.
 */
import { css } from 'lit';

export const feltDialogStyles = css`
  .switch-question,
  .wallet-screen {
    position: absolute;
    left: 50%;
    top: 50%;
    transform: translate(-50%, -50%);
    width: min(92%, 440px);
    border-radius: 12px;
    background: rgb(10 20 15 / 96%);
    border: 1px solid var(--pb-gold);
    box-shadow: 0 10px 30px rgb(0 0 0 / 55%);
    color: var(--pb-text);
  }
  .switch-question h2,
  .wallet-screen h2 {
    margin: 0 0 6px;
  }
  .switch-question .buttons,
  .wallet-screen .buttons,
  .notice .buttons.back {
    display: flex;
    flex-wrap: wrap;
    justify-content: flex-end;
    gap: 8px;
  }
`;
