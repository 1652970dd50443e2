/**
 * The two build tools the asset scripts call that ship no types of their own, declared as far as
 * the scripts use them.
 */

/** gltfpack's WebAssembly build (`library.js`), as its JSDoc documents it. */
declare module 'gltfpack' {
  /** Where gltfpack reads and writes the files its command line names. */
  export interface PackInterface {
    read(path: string): Uint8Array | undefined
    write(path: string, data: Uint8Array): void
  }
  /** Runs gltfpack's command line (without `gltfpack`); resolves to its log, rejects with it. */
  export function pack(args: string[], iface: PackInterface): Promise<string>
}

/** Draco's Emscripten builds for glTF; glTF-Transform takes the modules as they are. */
declare module 'draco3dgltf' {
  const draco3d: {
    createDecoderModule(options?: object): Promise<unknown>
    createEncoderModule(options?: object): Promise<unknown>
  }
  export default draco3d
}
