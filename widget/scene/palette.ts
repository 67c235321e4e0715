/**
 * Colours and fonts of the table. Pure data (no Pixi import) so that the DOM layer may use the same
 * chip colours as the canvas without loading Pixi.
 */
import { MINOR_UNITS } from '../../shared/table.ts';

/** System font stacks only: nothing is fetched. */
export const SERIF = 'Georgia, "Times New Roman", "Liberation Serif", "DejaVu Serif", serif';
export const SANS = '"Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif';

export const FELT = {
  centre: 0x1b7a4e,
  mid: 0x0f5c39,
  edge: 0x07331f,
  gold: 0xd9b55e,
  goldLight: 0xf3dc9a,
  goldDark: 0x9c7a2f,
  cream: 0xf2e6c4,
  rail: 0x3a2216,
  railDark: 0x1c0f09,
  railLight: 0x6b4028,
} as const;

/** Box accents: Player blue, Banker red, Tie gold-green, as printed on most layouts. */
export const BOX_ACCENT = { player: 0x9cc2ff, banker: 0xff9f8f, tie: 0xf0d27a } as const;
export const BOX_TINT = { player: 0x1d3f8a, banker: 0x8a1d24, tie: 0x0c4a2c } as const;

export const CARD = {
  face: 0xfcfaf3,
  edge: 0xc9bfa6,
  red: 0xc4162a,
  black: 0x17171d,
  back: 0x7d1424,
  backDark: 0x4f0b16,
  backGold: 0xe2c272,
} as const;

export interface ChipColours {
  base: number;
  stripe: number;
  inlay: number;
  text: number;
}

/** Casino colours by value (in currency units); unknown values fall back by position. */
const BY_VALUE: Readonly<Record<string, ChipColours>> = {
  '0.1': { base: 0x9aa7b4, stripe: 0xffffff, inlay: 0xf3f1ea, text: 0x3c4752 },
  '0.5': { base: 0xd9668a, stripe: 0xffffff, inlay: 0xf7ecef, text: 0x8e2a4b },
  '1': { base: 0xf1efe8, stripe: 0x2f64c4, inlay: 0xffffff, text: 0x2f64c4 },
  '2': { base: 0xe9b828, stripe: 0xffffff, inlay: 0xfff6d8, text: 0x7a5a00 },
  '5': { base: 0xc42a2a, stripe: 0xffffff, inlay: 0xfbeeee, text: 0xa01d1d },
  '10': { base: 0x2157b8, stripe: 0xffffff, inlay: 0xedf2fb, text: 0x1b4896 },
  '25': { base: 0x23844a, stripe: 0xffffff, inlay: 0xecf6ef, text: 0x17633a },
  '50': { base: 0xe8791f, stripe: 0xffffff, inlay: 0xfdf1e6, text: 0xa2520e },
  '100': { base: 0x1f1f24, stripe: 0xe8e8e8, inlay: 0xf3f3f3, text: 0x1f1f24 },
  '250': { base: 0xc2479a, stripe: 0xffffff, inlay: 0xfaedf5, text: 0x8b2b6c },
  '500': { base: 0x5d2a8c, stripe: 0xf3d66b, inlay: 0xf3eefa, text: 0x4a1f72 },
  '1000': { base: 0xd9a21e, stripe: 0x2a2a2a, inlay: 0xfff7e0, text: 0x6b4d00 },
};
const FALLBACK: readonly ChipColours[] = Object.values(BY_VALUE);

/** The colours of a chip of `minor` units; `index` (its place in the room's chip list) breaks unknown values. */
export function chipColours(minor: number, index = 0): ChipColours {
  return BY_VALUE[String(minor / MINOR_UNITS)] ?? FALLBACK[index % FALLBACK.length]!;
}

/** The short value printed on a chip: 100 → "0.1", 25 000 → "25", 1 000 000 → "1K". */
export function chipLabel(minor: number): string {
  const units = minor / MINOR_UNITS;
  if (units >= 1000 && units % 100 === 0) return `${units / 1000}K`;
  return String(units);
}

/** CSS form of a colour number, for DOM use. */
export function css(colour: number): string {
  return `#${colour.toString(16).padStart(6, '0')}`;
}
