/**
 * @noble/ed25519 with @noble/hashes' SHA-512 (its default would ask the missing `crypto.subtle`):
 * keys.ts's fallback where WebCrypto is missing, loaded only there (`import('./noble-ed25519.ts')`).
 * One module for both, so a bundle that splits it off keeps only SHA-512 of @noble/hashes' SHA-2
 * family, not every variant its module exports.
 */
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

ed.hashes.sha512 = sha512;

export { ed };
