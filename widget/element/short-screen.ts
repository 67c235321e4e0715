/**
 * A screen the table alone fills: a phone held sideways. styles/narrow.ts puts the controls beside the felt
 * there and fits the felt to the screen's height; the panels stay closed (panels/drawer-controller.ts); an
 * /embed frame sized by its helper grows out of it (widget/embed/frame.ts).
 */
export const SHORT_SCREEN = '(orientation: landscape) and (max-height: 520px)';
/** The least height of a landscape viewport that is not a SHORT_SCREEN. */
export const SHORT_SCREEN_ABOVE = 521;
