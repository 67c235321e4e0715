/**
 * The widget's one placeholder syntax, `{{name}}` (spaces inside the braces allowed), filled by
 * both the table's translator and the panels. Its own module, free of catalogs, so the panels
 * still work standalone without loading the translator. Values arrive already formatted; Lit
 * escapes what it interpolates, so nothing is escaped here.
 */

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** Fills every `{{name}}` of `template` from `values`; a name without a value stays, visibly. */
export function fill(template: string, values: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
