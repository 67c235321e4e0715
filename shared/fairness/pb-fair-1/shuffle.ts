/**
 * The keyed, domain-separated, versioned byte stream that drives the pb-fair-1 shuffle (FAIRNESS.md §1,
 * point 3); stream.ts draws uniform integers from it.
 *
 * Block i (i = 0, 1, 2, …) of the stream is
 *
 *   HMAC-SHA256(key = server seed bytes,
 *               msg = "pb-fair-1/shuffle\n" ‖ u32be(len) ‖ clientSeed UTF-8 ‖ u32be(nonce) ‖ u32be(i))
 *
 * where len is the client seed's UTF-8 byte length and nonce is 0 for a whole shoe or the round
 * number in reshuffle mode. The stream is block 0 ‖ block 1 ‖ …, read as consecutive big-endian
 * unsigned 32-bit words. Only someone holding the server seed can compute any of it.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, u32be, utf8Bytes } from '../common/encoding.ts';
import type { WordStream } from '../common/stream.ts';

/** Domain tag of the shuffle stream. */
export const FAIR1_SHUFFLE_TAG = 'pb-fair-1/shuffle\n';
const WORDS_PER_BLOCK = 8;

/** The HMAC message of block `counter`, without the key: for documentation, vectors and other implementations. */
export function fair1ShuffleMessage(clientSeed: string, nonce: number, counter: number): Uint8Array<ArrayBuffer> {
  const seed = utf8Bytes(clientSeed);
  return concatBytes(utf8Bytes(FAIR1_SHUFFLE_TAG), u32be(seed.length), seed, u32be(nonce), u32be(counter));
}

/** The shuffle stream for one server seed, client seed and nonce. */
export function fair1ShuffleStream(serverSeed: Uint8Array, clientSeed: string, nonce: number): WordStream {
  const seed = utf8Bytes(clientSeed);
  // HMAC state after the fixed prefix, cloned per block: one key schedule per shoe, not per block.
  const prefixed = hmac.create(sha256, serverSeed).update(concatBytes(utf8Bytes(FAIR1_SHUFFLE_TAG), u32be(seed.length), seed, u32be(nonce)));
  const block = new Uint8Array(32);
  const view = new DataView(block.buffer);
  let counter = 0;
  let word = WORDS_PER_BLOCK;
  return {
    nextWord(): number {
      if (word === WORDS_PER_BLOCK) {
        prefixed.clone().update(u32be(counter++)).digestInto(block);
        word = 0;
      }
      return view.getUint32(4 * word++, false);
    },
    get blocks() {
      return counter;
    },
  };
}
