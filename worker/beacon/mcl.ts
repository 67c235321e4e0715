/**
 * The beacon's pairing check in WebAssembly: herumi's mcl (BSD-3-Clause), the build the registry's
 * `mcl-wasm` package ships, driven through its C interface (`mcl/bn.h`) directly. workerd refuses
 * to compile WebAssembly from bytes at run time, so the Worker imports the binary as a module
 * compiled ahead (`mcl-module.ts`, wrangler.toml `[[rules]] type = "CompiledWasm"`); the bytes are
 * taken out of the package by `scripts/mcl-wasm.ts` at build time.
 *
 * Only the check of one round's signature lives here: shared/beacon.ts's `verifyBeacon` still
 * checks the encodings, the round and the randomness, and its pure-JavaScript check
 * (@noble/curves) stays the reference, and the verifier of the widget and the CLI.
 *
 * The check is the one `verifyBeacon` makes: e(σ, −g2) · e(H(m), pk) = 1 in GT, the Miller loop's
 * lines of −g2 and of each chain key computed once. mcl is set up as drand and Ethereum use it:
 * the compressed (ZCash) encodings, RFC 9380 hash to G1 with the scheme's DST, and the subgroup
 * checks on decoding.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { BEACON_DST, BEACON_PUBLIC_KEY_BYTES, BEACON_SIGNATURE_BYTES, type BeaconSignatureCheck } from '../../shared/beacon.ts';

/** mcl's curve id of BLS12-381 (`MCL_BLS12_381`). */
const MCL_BLS12_381 = 5;
/** `MCLBN_COMPILED_TIME_VAR` of the 384-bit build (Fr in 4 words, Fp in 6): init refuses any other build. */
const MCLBN_COMPILED_TIME_VAR = 4 * 10 + 6;
/** `MCL_MAP_TO_MODE_HASH_TO_CURVE`: the RFC 9380 map (simplified SWU, the 11-isogeny). */
const MCL_MAP_TO_MODE_HASH_TO_CURVE = 5;
/** Bytes of mcl's points in memory: G1 is (x, y, z) over Fp of 48 bytes, G2 over Fp2, GT is 12 Fp. */
const FP_BYTES = 48;
const G1_BYTES = FP_BYTES * 3;
const G2_BYTES = FP_BYTES * 6;
const GT_BYTES = FP_BYTES * 12;
/** The flags of a compressed point's first byte (the ZCash encoding drand uses). */
const COMPRESSED_FLAG = 0x80;
const INFINITY_FLAG = 0x40;
/** The WebAssembly memory the module imports (`env.memory`): 32 pages, as mcl-wasm gives it; it grows by itself. */
const INITIAL_PAGES = 32;
/** At most this many chain keys keep their lines (each some 20 KB of the module's memory). */
const MAX_KEYS = 16;

/** The part of mcl's C interface used here (pointers into the module's memory are numbers). */
interface McL {
  /** The C++ static constructors: called once, before anything else. */
  __wasm_call_ctors?: () => void;
  malloc(size: number): number;
  free(pointer: number): void;
  mclBn_init(curve: number, compiledTimeVar: number): number;
  mclBn_setETHserialization(enable: number): void;
  mclBn_setMapToMode(mode: number): number;
  mclBn_verifyOrderG1(doVerify: number): void;
  mclBn_verifyOrderG2(doVerify: number): void;
  mclBn_getUint64NumToPrecompute(): number;
  mclBnG1_deserialize(x: number, buf: number, size: number): number;
  mclBnG1_isZero(x: number): number;
  mclBnG1_hashAndMapToWithDst(x: number, buf: number, size: number, dst: number, dstSize: number): number;
  mclBnG2_deserialize(x: number, buf: number, size: number): number;
  mclBnG2_isZero(x: number): number;
  mclBn_precomputeG2(lines: number, q: number): void;
  mclBn_precomputedMillerLoop2(f: number, p1: number, lines1: number, p2: number, lines2: number): void;
  mclBn_finalExp(y: number, x: number): void;
  mclBnGT_isOne(x: number): number;
}

/** The functions of the module called here (checked when it is set up). */
export const MCL_FUNCTIONS: ReadonlyArray<Exclude<keyof McL, '__wasm_call_ctors'>> = [
  'malloc',
  'free',
  'mclBn_init',
  'mclBn_setETHserialization',
  'mclBn_setMapToMode',
  'mclBn_verifyOrderG1',
  'mclBn_verifyOrderG2',
  'mclBn_getUint64NumToPrecompute',
  'mclBnG1_deserialize',
  'mclBnG1_isZero',
  'mclBnG1_hashAndMapToWithDst',
  'mclBnG2_deserialize',
  'mclBnG2_isZero',
  'mclBn_precomputeG2',
  'mclBn_precomputedMillerLoop2',
  'mclBn_finalExp',
  'mclBnGT_isOne',
];

/**
 * A signature check on mcl, from the compiled module of its WebAssembly (the Worker's import, or
 * `new WebAssembly.Module(bytes)` where compiling is allowed). Throws when the module is not the
 * build it expects (its initialisation fails).
 */
export function mclSignatureCheck(module: WebAssembly.Module): BeaconSignatureCheck {
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES });
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  const missing = MCL_FUNCTIONS.filter((name) => typeof instance.exports[name] !== 'function');
  if (missing.length > 0) throw new Error(`mcl: the WebAssembly module lacks ${missing.join(', ')}`);
  const mcl = instance.exports as unknown as McL;
  mcl.__wasm_call_ctors?.();
  const status = mcl.mclBn_init(MCL_BLS12_381, MCLBN_COMPILED_TIME_VAR);
  if (status !== 0) throw new Error(`mcl: the WebAssembly module is not the BLS12-381 build it should be (init ${status})`);
  mcl.mclBn_setETHserialization(1);
  if (mcl.mclBn_setMapToMode(MCL_MAP_TO_MODE_HASH_TO_CURVE) !== 0) throw new Error('mcl: no RFC 9380 hash to curve in this build');
  mcl.mclBn_verifyOrderG1(1);
  mcl.mclBn_verifyOrderG2(1);

  const linesBytes = mcl.mclBn_getUint64NumToPrecompute() * 8;
  /** Copies bytes into fresh memory of the module (never freed: set up once). */
  const place = (bytes: Uint8Array): number => {
    const at = mcl.malloc(bytes.length);
    new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
    return at;
  };
  const dst = new TextEncoder().encode(BEACON_DST);
  const dstAt = place(dst);
  // Scratch space of one check (JavaScript runs one check at a time).
  const INPUT_BYTES = Math.max(BEACON_SIGNATURE_BYTES, BEACON_PUBLIC_KEY_BYTES, 32);
  const input = mcl.malloc(INPUT_BYTES);
  const signature = mcl.malloc(G1_BYTES);
  const message = mcl.malloc(G1_BYTES);
  const product = mcl.malloc(GT_BYTES);
  const result = mcl.malloc(GT_BYTES);

  /** The lines of a G2 point given compressed, or why it is no point of G2. */
  const linesOf = (compressed: Uint8Array): number | string => {
    const point = mcl.malloc(G2_BYTES);
    try {
      new Uint8Array(memory.buffer, input, compressed.length).set(compressed);
      if (mcl.mclBnG2_deserialize(point, input, compressed.length) !== compressed.length) return 'not a point of G2';
      if (mcl.mclBnG2_isZero(point)) return 'the point at infinity';
      const lines = mcl.malloc(linesBytes);
      mcl.mclBn_precomputeG2(lines, point);
      return lines;
    } finally {
      mcl.free(point);
    }
  };
  const generatorLines = linesOf(bls12_381.G2.Point.BASE.negate().toBytes(true));
  if (typeof generatorLines === 'string') throw new Error(`mcl: the generator of G2 does not decode (${generatorLines})`);
  /** Lines of each chain key by its hex (the key was already checked as a point of G2 by verifyBeacon). */
  const keys = new Map<string, number>();
  const keyLines = (publicKey: string): number => {
    const known = keys.get(publicKey);
    if (known !== undefined) return known;
    const lines = linesOf(hexToBytes(publicKey));
    if (typeof lines === 'string') throw new Error(`mcl: the chain's public key is ${lines}`);
    if (keys.size >= MAX_KEYS) {
      const [oldest, at] = keys.entries().next().value!;
      keys.delete(oldest);
      mcl.free(at);
    }
    keys.set(publicKey, lines);
    return lines;
  };

  return (signatureBytes, messageBytes, publicKey) => {
    if (signatureBytes.length !== BEACON_SIGNATURE_BYTES) return { point: false, reason: `a compressed G1 point is ${BEACON_SIGNATURE_BYTES} bytes` };
    if (messageBytes.length > INPUT_BYTES) throw new RangeError(`mcl: a beacon message is at most ${INPUT_BYTES} bytes`);
    const lines = keyLines(publicKey);
    // The point at infinity has one encoding (0xc0, then zeros); mcl reads any x after the
    // infinity flag as the point at infinity, the reference refuses such bytes.
    if ((signatureBytes[0]! & INFINITY_FLAG) !== 0) {
      if (signatureBytes[0] === (COMPRESSED_FLAG | INFINITY_FLAG) && signatureBytes.every((b, i) => i === 0 || b === 0)) return { point: true, valid: false };
      return { point: false, reason: 'the point at infinity is encoded as 0xc0 and zeros only' };
    }
    new Uint8Array(memory.buffer, input, signatureBytes.length).set(signatureBytes);
    if (mcl.mclBnG1_deserialize(signature, input, signatureBytes.length) !== signatureBytes.length) {
      return { point: false, reason: 'not a canonical compressed point of the prime-order subgroup of G1' };
    }
    if (mcl.mclBnG1_isZero(signature)) return { point: true, valid: false }; // (not reached: infinity is handled above)
    new Uint8Array(memory.buffer, input, messageBytes.length).set(messageBytes);
    if (mcl.mclBnG1_hashAndMapToWithDst(message, input, messageBytes.length, dstAt, dst.length) !== 0) return { point: true, valid: false };
    mcl.mclBn_precomputedMillerLoop2(product, signature, generatorLines, message, lines);
    mcl.mclBn_finalExp(result, product);
    return { point: true, valid: mcl.mclBnGT_isOne(result) === 1 };
  };
}
