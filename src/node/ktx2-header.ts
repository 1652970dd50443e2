import { formatBytes } from '#shared/byte-size.ts'

/**
 * What a KTX2 texture will cost to transcode, read from its header before anything decodes it.
 * The file is data from a model anyone can name: a uniform 8,192² texture, supercompressed, is a
 * 6 KB file that transcodes to 341 MB of pixels (and seconds of work). A worker's `resourceLimits`
 * bound its JavaScript heap, not the transcoder's WebAssembly memory nor the pixels' ArrayBuffers,
 * so the budget is counted from the header here: every level's pixels as RGBA, for every layer and
 * face, or the level data the file says it inflates to if that is more (Basis inflates a level
 * whole first).
 */

/** A texture larger than this on a side is refused (the asset checks' maximum is 4,096). */
export const MAX_TEXTURE_SIDE = 8_192

/**
 * RGBA bytes one texture may transcode to: a 4,096² texture with every level is 85.3 MB, so
 * whatever the asset checks let through (4,096 a side at most) previews.
 */
export const TEXTURE_BUDGET_BYTES = 96 * 1024 * 1024

/**
 * RGBA bytes one model's KTX2 textures may transcode to together: three of the largest textures
 * above. Each is handed to the page, which keeps them for the GPU.
 */
export const MODEL_TEXTURE_BUDGET_BYTES = 256 * 1024 * 1024

/** The first 12 bytes of every KTX2 file: «KTX 20»\r\n\x1A\n. */
const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a]
/** The fixed header, before the level index. */
const HEADER_BYTES = 80
/** Each level's entry in the index: byte offset, byte length, uncompressed byte length (64 bits each). */
const LEVEL_INDEX_BYTES = 24

export interface Ktx2Header {
  width: number
  height: number
  /** Mip levels in the file (at least 1). */
  levels: number
  /** Array layers (at least 1). */
  layers: number
  /** 1, or 6 for a cube map. */
  faces: number
  /** What transcoding it costs, in bytes (see the module's comment). */
  bytes: number
}

/**
 * The texture's header and cost, or an error whose message says, in words, why it is not
 * transcoded: not KTX2, damaged, too large a side, or over the budget a texture.
 */
export function readKtx2Header(bytes: Uint8Array): Ktx2Header {
  // The transcoder's own check lets much through: the identifier is read here first.
  if (!KTX2_IDENTIFIER.every((byte, at) => bytes[at] === byte)) throw new Error('it is not a KTX2 texture')
  const damaged = (why: string) => new Error(`the KTX2 texture is damaged (${why})`)
  if (bytes.length < HEADER_BYTES) throw damaged('its header is cut short')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u32 = (at: number) => view.getUint32(at, true)
  const width = u32(20)
  const height = u32(24)
  const depth = u32(28)
  const layers = Math.max(1, u32(32))
  const faces = u32(36)
  const levels = Math.max(1, u32(40))
  if (width === 0 || height === 0) throw damaged(`it is ${width}×${height}`)
  if (depth > 0) throw damaged('it is a 3D texture, which Basis does not hold')
  if (faces !== 1 && faces !== 6) throw damaged(`it says ${faces} faces`)
  if (2 ** (levels - 1) > Math.max(width, height))
    throw damaged(`it says ${levels} levels of a ${width}×${height} texture`)
  if (width > MAX_TEXTURE_SIDE || height > MAX_TEXTURE_SIDE) {
    throw new Error(
      `the KTX2 texture is ${width}×${height}; the preview shows at most ${MAX_TEXTURE_SIDE} pixels a side`,
    )
  }
  if (bytes.length < HEADER_BYTES + levels * LEVEL_INDEX_BYTES) throw damaged('its level index is cut short')

  let pixels = 0
  let inflated = 0
  for (let level = 0; level < levels; level++) {
    pixels += Math.max(1, width >> level) * Math.max(1, height >> level)
    // The uncompressed length, a 64-bit number: anything in its high half is over any budget.
    const entry = HEADER_BYTES + level * LEVEL_INDEX_BYTES + 16
    inflated += u32(entry) + u32(entry + 4) * 2 ** 32
  }
  const rgba = pixels * 4 * layers * faces
  const cost = Math.max(rgba, inflated)
  if (cost > TEXTURE_BUDGET_BYTES) {
    const counts = [
      ...(levels > 1 ? [`${levels} levels`] : []),
      ...(layers > 1 ? [`${layers} layers`] : []),
      ...(faces > 1 ? [`${faces} faces`] : []),
    ]
    const shape = `${width}×${height}${counts.length ? ` with ${counts.join(', ')}` : ''}`
    const size =
      rgba >= inflated
        ? `, ${formatBytes(rgba)} as pixels`
        : ` and says its levels inflate to ${formatBytes(inflated)}`
    throw new Error(
      `the KTX2 texture is ${shape}${size}, over the ${formatBytes(TEXTURE_BUDGET_BYTES)} the preview transcodes a texture`,
    )
  }
  return { width, height, levels, layers, faces, bytes: cost }
}
