/**
 * Capitals as each language writes them. `toLocaleUpperCase()` without a locale keeps the Greek
 * tonos (Παίκτης → ΠΑΊΚΤΗΣ), which Greek never writes in capitals; with 'el' it drops it
 * (ΠΑΙΚΤΗΣ). Tiny and Pixi-free: the scene and the DOM may both use it.
 */
export function upper(text: string, lang: string): string {
  try {
    return text.toLocaleUpperCase(lang || undefined);
  } catch {
    // An ill-formed tag (RangeError): the default rules are better than no text.
    return text.toLocaleUpperCase();
  }
}
