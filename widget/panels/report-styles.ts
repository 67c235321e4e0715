/** The look of a verification report (headline, round chips, reasons): shared by both report elements. */
import { css } from 'lit';

export const reportStyles = css`
      :host {
        border: none;
        padding: 0;
        background: transparent;
      }
      .shoe + .shoe {
        margin-top: 14px;
      }
      .headline {
        display: flex;
        gap: 8px;
        align-items: flex-start;
        margin: 0 0 8px;
        padding: 8px 10px;
        border-radius: 8px;
        overflow-wrap: anywhere;
      }
      .headline strong {
        font-weight: 700;
      }
      .headline .message {
        font-weight: 400;
        color: var(--_text);
      }
      .icon {
        flex: none;
        display: inline-grid;
        place-items: center;
        width: 22px;
        height: 22px;
        border-radius: 50%;
        color: #0b2a1c;
        font-weight: 800;
      }
      .ok .headline {
        background: rgba(76, 208, 125, 0.14);
        color: var(--_ok);
      }
      .ok .icon {
        background: var(--_ok);
      }
      .pending .headline {
        background: rgba(232, 191, 79, 0.13);
        color: var(--_pending);
      }
      .pending .icon {
        background: var(--_pending);
      }
      .fail .headline {
        background: rgba(255, 122, 112, 0.14);
        color: var(--_fail);
      }
      .fail .icon {
        background: var(--_fail);
      }
      .chips {
        display: flex;
        flex-wrap: wrap;
        gap: 4px;
        margin: 0;
        padding: 0;
        list-style: none;
      }
      .chip {
        min-width: 2.1em;
        padding: 1px 4px;
        border-radius: 5px;
        text-align: center;
        font-size: 0.8em;
        font-weight: 600;
        font-variant-numeric: tabular-nums;
        border: 1px solid transparent;
      }
      .chip.verified {
        color: #0b2a1c;
        background: var(--_ok);
      }
      .chip.pending {
        color: var(--_pending);
        border-color: var(--_pending);
        background: rgba(232, 191, 79, 0.08);
      }
      .chip.failed {
        color: #2a0b0b;
        background: var(--_fail);
      }
      .chip.unchecked {
        color: var(--_fail);
        background: transparent;
        border-color: var(--_fail);
        border-style: dashed;
      }
      .others {
        margin: 10px 0 0;
        font-size: 0.9em;
        color: var(--_text-dim);
      }
      .reasons {
        margin: 4px 0 0;
        padding-left: 18px;
        color: var(--_fail);
        overflow-wrap: anywhere;
      }
      .small {
        font-size: 0.85em;
        margin-top: 6px;
      }
`;
