/** The `reduced-motion` attribute's reading and writing (the element's `reducedMotion` property). */

/** `reduced-motion` attribute: absent → follow the OS; "false"/"no-preference" → motion; anything else → reduced. */
export const reducedMotionConverter = {
  fromAttribute(value: string | null): boolean | null {
    if (value === null) return null;
    return !['false', 'no-preference', 'off'].includes(value.trim().toLowerCase());
  },
  toAttribute(value: boolean | null): string | null {
    return value === null ? null : value ? '' : 'false';
  },
};
