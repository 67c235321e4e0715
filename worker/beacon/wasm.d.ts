/** A `.wasm` import in the Worker is its module, compiled ahead (wrangler.toml `[[rules]] type = "CompiledWasm"`). */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
