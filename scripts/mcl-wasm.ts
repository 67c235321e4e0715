/**
 * The WebAssembly of herumi's mcl for the Worker's beacon check (worker/beacon/mcl.ts): taken out of
 * the `mcl-wasm` package (BSD-3-Clause), which ships it only as base64 inside its JavaScript
 * (`dist/mcl_c.js`) and compiles it at run time, which workerd refuses ("Wasm code generation
 * disallowed by embedder"). Written as a binary file, `worker/beacon/mcl.wasm`, that the Worker
 * imports as a module compiled ahead (wrangler.toml `[[rules]] type = "CompiledWasm"`).
 *
 * A build output, never committed (.gitignore): `npm run build` (so `npm start` and a deploy) and
 * the Worker's tests (test/worker/vitest.config.ts) write it before wrangler needs it.
 * `node scripts/mcl-wasm.ts` writes it alone. Rewritten only when its bytes change.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the Worker imports it from (worker/beacon/mcl-module.ts: `./mcl.wasm`). */
export const MCL_WASM_FILE = path.join(root, 'worker', 'beacon', 'mcl.wasm');

/** The module's bytes, decoded from the installed package's JavaScript; throws when its layout is not the expected one. */
export async function mclWasmBytes(): Promise<Uint8Array<ArrayBuffer>> {
  const source = createRequire(import.meta.url).resolve('mcl-wasm/dist/mcl_c.js');
  const text = await readFile(source, 'utf8');
  const found = /const wasmBase64 = '([A-Za-z0-9+/=]+)'/.exec(text);
  if (!found) throw new Error(`${source}: no base64 WebAssembly found (has mcl-wasm changed its layout?)`);
  const bytes = Uint8Array.from(Buffer.from(found[1]!, 'base64'));
  // "\0asm", version 1
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d || bytes[4] !== 1) {
    throw new Error(`${source}: the base64 is not a WebAssembly module`);
  }
  return bytes;
}

/** Writes MCL_WASM_FILE (when missing or different); its path. */
export async function writeMclWasm(): Promise<string> {
  const bytes = await mclWasmBytes();
  const existing = await readFile(MCL_WASM_FILE).catch(() => undefined);
  if (!existing || !Buffer.from(bytes).equals(existing)) await writeFile(MCL_WASM_FILE, bytes);
  return MCL_WASM_FILE;
}

/**
 * The module for Miniflare, where the Worker is bundled by esbuild with its `.wasm` import left
 * external (`external: ['*.wasm']`, as the benches do): beside the bundle's `index.js`, so that
 * its `./mcl.wasm` import resolves.
 */
export async function mclWasmModule(): Promise<{ type: 'CompiledWasm'; path: string; contents: Uint8Array<ArrayBuffer> }> {
  return { type: 'CompiledWasm', path: 'mcl.wasm', contents: await mclWasmBytes() };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = await writeMclWasm();
  console.log(`${path.relative(root, file)}: mcl's WebAssembly for the Worker's beacon check`);
}
