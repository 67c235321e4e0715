/**
 * The four suit symbols as vector paths, so that cards never depend on a font having ♠♥♦♣.
 * Coordinates are a unit box (-0.5..0.5) scaled to `size` and centred on (x, y); `flip` turns the
 * symbol upside down, as the lower pips of a real card are.
 */
import type { Graphics } from './pixi.ts';
import type { Suit } from '../../shared/cards.ts';

/** Adds one suit symbol to `g`'s current path and fills it. */
export function drawSuit(g: Graphics, suit: Suit, x: number, y: number, size: number, colour: number, flip = false, alpha = 1): void {
  const paint = { color: colour, alpha };
  const sy = flip ? -size : size;
  const X = (u: number): number => x + u * size;
  const Y = (v: number): number => y + v * sy;
  switch (suit) {
    case 'H':
      heart(g, X, Y);
      break;
    case 'S': {
      // A heart turned over and squeezed up, on a flared stem.
      const Ys = (v: number): number => Y(-v * 0.78 - 0.12);
      heart(g, X, Ys);
      g.fill(paint);
      stem(g, X, Y);
      break;
    }
    case 'D':
      g.moveTo(X(0), Y(-0.5))
        .quadraticCurveTo(X(0.14), Y(-0.2), X(0.4), Y(0))
        .quadraticCurveTo(X(0.14), Y(0.2), X(0), Y(0.5))
        .quadraticCurveTo(X(-0.14), Y(0.2), X(-0.4), Y(0))
        .quadraticCurveTo(X(-0.14), Y(-0.2), X(0), Y(-0.5))
        .closePath();
      break;
    case 'C': {
      const r = size * 0.225;
      g.circle(X(0), Y(-0.25), r)
        .circle(X(-0.255), Y(0.07), r)
        .circle(X(0.255), Y(0.07), r)
        .circle(X(0), Y(0.02), size * 0.13);
      g.fill(paint);
      stem(g, X, Y);
      break;
    }
  }
  g.fill(paint);
}

/** True for hearts and diamonds. */
export function isRed(suit: Suit): boolean {
  return suit === 'H' || suit === 'D';
}

type Axis = (u: number) => number;

function heart(g: Graphics, X: Axis, Y: Axis): void {
  g.moveTo(X(0), Y(0.5))
    .bezierCurveTo(X(-0.14), Y(0.34), X(-0.5), Y(0.12), X(-0.5), Y(-0.15))
    .bezierCurveTo(X(-0.5), Y(-0.38), X(-0.33), Y(-0.5), X(-0.22), Y(-0.5))
    .bezierCurveTo(X(-0.1), Y(-0.5), X(-0.02), Y(-0.42), X(0), Y(-0.3))
    .bezierCurveTo(X(0.02), Y(-0.42), X(0.1), Y(-0.5), X(0.22), Y(-0.5))
    .bezierCurveTo(X(0.33), Y(-0.5), X(0.5), Y(-0.38), X(0.5), Y(-0.15))
    .bezierCurveTo(X(0.5), Y(0.12), X(0.14), Y(0.34), X(0), Y(0.5))
    .closePath();
}

function stem(g: Graphics, X: Axis, Y: Axis): void {
  g.moveTo(X(0), Y(0.02))
    .quadraticCurveTo(X(0.04), Y(0.36), X(0.22), Y(0.5))
    .lineTo(X(-0.22), Y(0.5))
    .quadraticCurveTo(X(-0.04), Y(0.36), X(0), Y(0.02))
    .closePath();
}
