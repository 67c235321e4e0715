/** The languages the table speaks (the widget's catalogs; the embed frame's `lang`). Data only: part of the loader. */
export const LANGUAGES = ['en', 'ru', 'it', 'el'] as const;
export type Language = (typeof LANGUAGES)[number];
