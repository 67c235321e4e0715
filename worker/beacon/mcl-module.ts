/**
 * The Worker's beacon signature check: mcl in WebAssembly (mcl.ts), from its module compiled ahead
 * (`./mcl.wasm`, written by scripts/mcl-wasm.ts, imported as a CompiledWasm module), with the
 * pure-JavaScript reference (@noble/curves, shared/beacon.ts) as the fallback: if mcl cannot be set
 * up in this isolate, or fails on an input, the reference answers. Instantiated on the first check,
 * so that an isolate that never checks a round pays nothing for it.
 */
import { type BeaconSignatureCheck, nobleSignatureCheck } from '../../shared/beacon.ts';
import { mclSignatureCheck } from './mcl.ts';
import mclWasm from './mcl.wasm';

/** mcl's check once set up; null when it could not be (the reference answers). */
let mcl: BeaconSignatureCheck | null | undefined;

/** Which check answers in this isolate: mcl, the JavaScript fallback, or none yet (mcl is set up on the first check). */
export function workerCheckInUse(): 'mcl' | 'javascript' | 'not yet' {
  return mcl === undefined ? 'not yet' : mcl === null ? 'javascript' : 'mcl';
}

/** mcl's check, the reference as its fallback: what the Worker installs for `verifyBeacon` (beacon.ts). */
export const workerSignatureCheck: BeaconSignatureCheck = (signature, message, publicKey) => {
  if (mcl === undefined) {
    try {
      mcl = mclSignatureCheck(mclWasm);
    } catch (err) {
      console.error(`punto-banco: mcl (WebAssembly) cannot check beacon signatures here, the JavaScript check does: ${(err as Error).message}`);
      mcl = null;
    }
  }
  if (mcl === null) return nobleSignatureCheck(signature, message, publicKey);
  try {
    return mcl(signature, message, publicKey);
  } catch (err) {
    console.error(`punto-banco: mcl (WebAssembly) failed on a beacon signature, the JavaScript check answers: ${(err as Error).message}`);
    return nobleSignatureCheck(signature, message, publicKey);
  }
};
