/**
 * Seeds, the same in every protocol version (FAIRNESS.md §1, point 1): the server seed is 32 bytes
 * from a CSPRNG, written as 64 lowercase hex characters; each version publishes a commitment to it
 * before the player's seed. The client seed is the player's text: 1 to 128 Unicode code points,
 * NFC, no control or line-separator characters.
 */
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import { bytesToHex, hexToBytes, isWellFormed } from './encoding.ts';

export const SERVER_SEED_BYTES = 32;
export const CLIENT_SEED_MAX = 128;

/** A fresh server seed: 32 bytes from the given CSPRNG (e.g. `n => crypto.getRandomValues(new Uint8Array(n))`), as hex. */
export function newServerSeed(randomBytes: (n: number) => Uint8Array): string {
  const bytes = randomBytes(SERVER_SEED_BYTES);
  if (bytes.length !== SERVER_SEED_BYTES) throw new RangeError(`randomBytes(${SERVER_SEED_BYTES}) returned ${bytes.length} bytes`);
  return bytesToHex(bytes);
}

/** Exactly 64 lowercase hex characters: the only spelling of a server seed in records. */
export function isServerSeed(hex: unknown): hex is string {
  return typeof hex === 'string' && /^[0-9a-f]{64}$/.test(hex);
}

/** The 32 bytes of a server seed; throws RangeError when `hex` is not one (check with `isServerSeed`). */
export function serverSeedBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (!isServerSeed(hex)) throw new RangeError('a server seed is exactly 64 lowercase hex characters');
  return hexToBytes(hex)!;
}

export type ClientSeedErrorCode = 'bad_client_seed';

/** C0 and C1 controls, DEL, and the two Unicode line/paragraph separators. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Checks the player's seed and returns it in NFC, the form that enters the derivation and the
 * records: 1 to 128 code points after normalisation, none of them a control character (U+0000–
 * U+001F, U+007F–U+009F) or U+2028/U+2029, no unpaired surrogate. Other text (spaces, emoji,
 * any script) is fine.
 */
export function validateClientSeed(text: string): Result<string, EngineError<ClientSeedErrorCode>> {
  if (typeof text !== 'string') return fail('bad_client_seed', 'the client seed must be text');
  if (!isWellFormed(text)) return fail('bad_client_seed', 'the client seed holds an unpaired surrogate: it is not valid Unicode text');
  const nfc = text.normalize('NFC');
  const length = [...nfc].length;
  if (length < 1 || length > CLIENT_SEED_MAX) {
    return fail('bad_client_seed', `the client seed must be 1 to ${CLIENT_SEED_MAX} characters, got ${length}`);
  }
  const bad = UNPRINTABLE.exec(nfc);
  if (bad) {
    const cp = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return fail('bad_client_seed', `the client seed may not hold control characters (U+${cp} at character ${[...nfc.slice(0, bad.index)].length + 1})`);
  }
  return ok(nfc);
}

/**
 * The client seed exactly as a record must hold it (FAIRNESS.md §4, §B1, §C6): valid by
 * `validateClientSeed`, already in NFC (a record never holds a form the derivation would change),
 * and no code point unassigned in Unicode 17.0. The verifiers and the tables that sign a start
 * call this one check, so a table never signs a seed the verifier refuses.
 */
export function checkRecordedClientSeed(text: string): Result<string, EngineError<ClientSeedErrorCode>> {
  const seed = validateClientSeed(text);
  if (!seed.ok) return seed;
  if (seed.value !== text) return fail('bad_client_seed', 'the client seed is not in Unicode NFC');
  if (/\p{Cn}/u.test(text)) return fail('bad_client_seed', 'the client seed holds a code point unassigned in Unicode 17.0');
  return seed;
}
