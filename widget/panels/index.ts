/**
 * The widget's panels, each a standalone Lit custom element (Shadow DOM, no globals, defined once):
 * <pb-scoreboard>, <pb-history>, <pb-fairness> (with <pb-cut-stack> and <pb-verify-report>),
 * <pb-help>, and <pb-verify-page> for the standalone verifier. Importing this module defines them.
 */
export { defaultFormatAmount, defineElement, emit } from './base.ts';
export { PANEL_STRINGS, type PanelStrings, panelStrings } from './strings.ts';
export { cardFace, type CardFace } from './card-face.ts';
export { PbScoreboard, roadResultsOf, type ScoreboardResult } from './scoreboard.ts';
export { PbHistory } from './history.ts';
export { clampCut, type CutChangeDetail, PbCutStack } from './cut-stack.ts';
export { PbFair1VerifyReport, reportHeadline, type ShoeLabel } from './verify-report-fair1.ts';
export { checkTable, copyOf, PbVerifyReport, type TableCheckResult } from './verify-report.ts';
export { type FairnessStatus, PbFairness, randomClientSeed, type ShoeStartDetail, type TableSource, type VerifiedDetail } from './fairness.ts';
export type { ShoeChoiceDetail } from '../element/emit.ts';
export { describeTotals, PbHelp } from './help.ts';
export { JWKS_PATH, parseJwksText, parseTranscriptText, PbVerifyPage } from './verify-page-element.ts';
