import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { runInNewContext } from 'node:vm'
import type { TranscodedTexture } from '#shared/ipc.ts'
import { readKtx2Header } from './ktx2-header.ts'

/**
 * Turns a KTX2 (Basis Universal) texture into plain RGBA pixels for the AR preview, with three's
 * own Basis transcoder. It runs in Node rather than in the page because the transcoder's bindings
 * are built with `new Function` (Emscripten's embind), which the page's CSP refuses, in the page
 * and in the workers it makes, and should keep refusing; and on a thread of main's own
 * (ktx2-transcoder-thread.ts), since a large texture takes seconds. The bytes are data from a
 * file: the transcoder reads them inside its WebAssembly memory, the header's sizes are checked
 * against the budget before anything is made (ktx2-header.ts), and the texture is transcoded once
 * (a preview shows a handful at a time).
 */

/** Basis Universal's `transcoder_texture_format::cTFRGBA32`. */
const RGBA32 = 13
/** KTX2's data format descriptor: the sRGB transfer function. */
const KHR_DF_TRANSFER_SRGB = 2

interface Ktx2File {
  isValid(): boolean
  getWidth(): number
  getHeight(): number
  getLevels(): number
  getDFDTransferFunc(): number
  startTranscoding(): boolean
  getImageTranscodedSizeInBytes(level: number, layer: number, face: number, format: number): number
  getImageLevelInfo(level: number, layer: number, face: number): { origWidth: number; origHeight: number }
  transcodeImage(
    out: Uint8Array,
    level: number,
    layer: number,
    face: number,
    format: number,
    flags: number,
    channel0: number,
    channel1: number,
  ): number
  close(): void
  delete(): void
}

interface BasisModule {
  initializeBasis(): void
  KTX2File: new (bytes: Uint8Array) => Ktx2File
}

let basis: Promise<BasisModule> | undefined

/**
 * The transcoder's two files, as three ships them. Run as TypeScript (the unit tests, the browser
 * tests' harness, the benchmarks), they are read from three's package. Bundled into main, they are
 * copied beside the bundle by electron-vite's `?asset` import (out/main/chunks/basis_transcoder-…),
 * so the packaged app needs no three.js package at all: the page's copy is in its own bundle.
 */
async function basisFiles(): Promise<{ script: string; wasm: string }> {
  if (import.meta.url.endsWith('.ts')) {
    const require = createRequire(import.meta.url)
    return {
      script: require.resolve('three/examples/jsm/libs/basis/basis_transcoder.js'),
      wasm: require.resolve('three/examples/jsm/libs/basis/basis_transcoder.wasm'),
    }
  }
  const [{ default: script }, { default: wasm }] = await Promise.all([
    import('three/examples/jsm/libs/basis/basis_transcoder.js?asset'),
    import('three/examples/jsm/libs/basis/basis_transcoder.wasm?asset'),
  ])
  return { script, wasm }
}

/** The transcoder, compiled once (the worker does so as it starts, before it takes a texture). */
export function loadBasis(): Promise<BasisModule> {
  basis ??= (async () => {
    const files = await basisFiles()
    const script = readFileSync(files.script, 'utf8')
    const wasmBinary = readFileSync(files.wasm)
    // A classic script that defines BASIS (three's package is ESM, so it cannot be required): run
    // in a context of its own, with nothing of Node's but WebAssembly and what Emscripten reads.
    const context = {
      // Node's; its types (lib ES2023, no DOM) do not declare it.
      WebAssembly: (globalThis as Record<string, unknown>).WebAssembly,
      console,
      module: { exports: {} as unknown },
      exports: {},
    }
    runInNewContext(script, context, { filename: 'basis_transcoder.js' })
    const factory = context.module.exports as (options: { wasmBinary: Uint8Array }) => Promise<BasisModule>
    const module = await factory({ wasmBinary })
    module.initializeBasis()
    return module
  })()
  return basis
}

export async function transcodeKtx2(bytes: Uint8Array): Promise<TranscodedTexture> {
  const header = readKtx2Header(bytes)
  const { KTX2File } = await loadBasis()
  const file = new KTX2File(bytes)
  try {
    if (!file.isValid()) throw new Error('the KTX2 texture is damaged')
    const width = file.getWidth()
    const height = file.getHeight()
    // The header read above is the one Basis reads: a texture is what it said it was.
    if (width !== header.width || height !== header.height || file.getLevels() > header.levels)
      throw new Error('the KTX2 texture is damaged (Basis reads another size in it)')
    if (!file.startTranscoding()) throw new Error('the KTX2 texture is damaged (it could not be transcoded)')
    const levels: TranscodedTexture['levels'] = []
    let total = 0
    for (let level = 0; level < file.getLevels(); level++) {
      const { origWidth, origHeight } = file.getImageLevelInfo(level, 0, 0)
      const size = file.getImageTranscodedSizeInBytes(level, 0, 0, RGBA32)
      total += size
      if (total > header.bytes)
        throw new Error('the KTX2 texture is damaged (its levels are larger than it says)')
      const data = new Uint8Array(size)
      if (!file.transcodeImage(data, level, 0, 0, RGBA32, 0, -1, -1)) {
        throw new Error(`level ${level} of the KTX2 texture could not be transcoded`)
      }
      levels.push({ width: origWidth, height: origHeight, data })
    }
    return { width, height, srgb: file.getDFDTransferFunc() === KHR_DF_TRANSFER_SRGB, levels }
  } finally {
    file.close()
    file.delete()
  }
}
