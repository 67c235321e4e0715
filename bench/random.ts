/** Draws for the bench's random bets from the platform CSPRNG (any fair source will do: nothing here is a proof). */
import { randomBelow } from '../shared/index.ts';

export const below = (n: number): number => randomBelow(n, (k) => crypto.getRandomValues(new Uint8Array(k)));
