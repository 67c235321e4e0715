/**
 * scripts/mcl-wasm.ts: the WebAssembly taken out of the installed mcl-wasm package is a module that
 * needs only its memory, has every function the Worker's beacon check calls, and checks quicknet's
 * real round 1000 as the JavaScript reference does (in Node, which may compile from bytes).
 */
import { describe, expect, test } from 'vitest';
import { nobleSignatureCheck, QUICKNET, useBeaconSignatureCheck, verifyBeacon } from '../../shared/beacon.ts';
import { mclWasmBytes, mclWasmModule } from '../../scripts/mcl-wasm.ts';
import { MCL_FUNCTIONS, mclSignatureCheck } from '../../worker/beacon/mcl.ts';
import { R1000 } from '../worker/beacon-vectors.ts';

describe("mcl's WebAssembly, taken out of the package", () => {
  test('is a module that imports only its memory and exports what the check calls', async () => {
    const module = new WebAssembly.Module(await mclWasmBytes());
    expect(WebAssembly.Module.imports(module)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
    const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
    for (const name of MCL_FUNCTIONS) expect(exported.has(name), name).toBe(true);
    expect((await mclWasmModule()).path).toBe('mcl.wasm'); // beside a bundle's index.js, as `./mcl.wasm` imports it
  });

  test("checks quicknet's round 1000, and refuses it for round 1001, as the reference does", async () => {
    const mcl = mclSignatureCheck(new WebAssembly.Module(await mclWasmBytes()));
    try {
      for (const check of [mcl, nobleSignatureCheck]) {
        useBeaconSignatureCheck(check);
        expect(verifyBeacon(QUICKNET, R1000)).toEqual({ ok: true, value: R1000 });
        expect(verifyBeacon(QUICKNET, { ...R1000, round: 1001 })).toMatchObject({ ok: false, error: { code: 'bad_beacon_signature' } });
      }
    } finally {
      useBeaconSignatureCheck();
    }
  });
});
