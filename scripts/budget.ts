/**
 * The widget's size budgets, gzip (level 9): the loader (the entry and its static chunks, all loaded
 * before the element is defined) and all JavaScript in dist/. `npm run build` and `npm run bench` print
 * each figure against its budget (`againstBudget`), and say so when it is over.
 */
export const BUDGET_KB = {
  loader: 15,
  // 230 → 242: shared tables add their own lazy client chunk and their texts in every catalog (≈ 11 KB).
  // 242 → 265: wallet mode's player side (its dialogs, styles and session part, its texts in every
  // catalog) and the table's polish took all JavaScript to 261 KB; the budget is that and a margin.
  // 265 → 268: pb-shared-2's check of the player's own bet (a lazy 2 KB chunk: the Merkle proof and
  // its hashing, loaded with the first proof) and its texts in every catalog took all JavaScript to 265.5 KB.
  // 268 → 272: the cut on the felt (the stack and cut card the player drags, its slider and texts) and
  // the banner's two-line layout, merged with pb-shared-2, took all JavaScript to 269.1 KB.
  // 272 → 276: the squeeze (its peel, its input over the cards, its texts: +2.4 KB), the toast kept
  // off the boxes, and pb-shared-2's check of the player's own start request, merged, took all
  // JavaScript to 274.2 KB.
  all: 276,
} as const;

/** A figure's budget for the printed line: "target ≤ 15 KB", or "target ≤ 265 KB: over by 1.2 KB" when it is exceeded. */
export function againstBudget(bytes: number, budgetKb: number): string {
  const over = bytes / 1024 - budgetKb;
  return over > 0 ? `target ≤ ${budgetKb} KB: over by ${over.toFixed(1)} KB` : `target ≤ ${budgetKb} KB`;
}
