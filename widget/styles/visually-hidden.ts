/** Declarations that hide an element from sight and keep it for screen readers (for use inside a rule). */
import { css } from 'lit';

export const visuallyHidden = css`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
`;
