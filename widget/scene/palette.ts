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
  /** The chip's colour (the DOM tray's `--chip`). */
  base: number;
  /** The edge inserts and the dashed ring. */
  stripe: number;
  /** The centre disc under the value. */
  inlay: number;
  /** The value's colour (the DOM tray's `--chip-ink`). */
  text: number;
}

/**
 * THE chip colours, for the DOM tray and the felt alike: a room's chips take these in order,
 * smallest first, so that the chip a player picks in the tray lands on the felt in the same colour.
 * The tray's colours are the truth (they are what a player sees first): white, red, green, black,
 * purple, orange — the casino order of 1, 5, 25, 100, 500, 1000. The tray shows them as its
 * `--pb-chip-1` … `--pb-chip-6` defaults and inks (styles/felt-controls.ts).
 */
export const CHIP_TONES: readonly ChipColours[] = [
  { base: 0xf3f1ea, stripe: 0x9b948a, inlay: 0xf3f1ea, text: 0x1b1b1b },
  { base: 0xc8302c, stripe: 0xffffff, inlay: 0xc8302c, text: 0xffffff },
  { base: 0x1f7a43, stripe: 0xffffff, inlay: 0x1f7a43, text: 0xffffff },
  { base: 0x1d1d22, stripe: 0xf2d98c, inlay: 0x1d1d22, text: 0xf2d98c },
  { base: 0x6b3fa0, stripe: 0xffffff, inlay: 0x6b3fa0, text: 0xffffff },
  { base: 0xd98a1c, stripe: 0xffffff, inlay: 0xd98a1c, text: 0x1b1406 },
];

/**
 * The room's palette keyed by chip value (minor units): `chips` are the room's denominations in any
 * order; the smallest gets the first tone. A value keeps its colour within a room, and the same
 * rank has the same colour in every room (as the tray shows them).
 */
export function chipPalette(chips: readonly number[]): ReadonlyMap<number, ChipColours> {
  const sorted = [...new Set(chips)].sort((a, b) => a - b);
  return new Map(sorted.map((chip, i) => [chip, CHIP_TONES[i % CHIP_TONES.length]!]));
}

/** The colours of a chip of `minor` units in a room of `chips`; a value not in the room gets the first tone. */
export function chipColours(minor: number, chips: readonly number[]): ChipColours {
  return chipPalette(chips).get(minor) ?? CHIP_TONES[0]!;
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
