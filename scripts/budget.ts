/**
 * The widget's size budgets, gzip (level 9): the loader (the entry and its static chunks, all loaded
 * before the element is defined) and all JavaScript in dist/. `npm run build` and `npm run bench` print
 * the figures against these.
 */
export const BUDGET_KB = {
  loader: 15,
  // 230 → 242: shared tables add their own lazy client chunk and their texts in every catalog (≈ 11 KB).
  all: 242,
} as const;
