import { isRecord } from '../is-record.ts'

/**
 * A glTF asset's JSON and binary chunk, and the bytes of each image it holds, read without the
 * validator: its report gives an image's size only for the formats it knows (PNG, JPEG, WebP), so
 * a KTX2 texture's size is read from its own header (picture-sniff.ts). Every offset comes from
 * the file, so each is checked against what is there; what does not fit is left unread.
 */

export interface GltfContainer {
  json: Record<string, unknown>
  /** A GLB's binary chunk, the buffer without a URI. */
  bin?: Uint8Array
}

const GLB_MAGIC = 0x46546c67 // "glTF"
const JSON_CHUNK = 0x4e4f534a // "JSON"
const BIN_CHUNK = 0x004e4942 // "BIN\0"

/** One decoder for every container: `decode` without `stream` keeps nothing between calls. */
const UTF8 = new TextDecoder()

/** The JSON (and a GLB's binary chunk), or undefined when they cannot be read. */
export function readContainer(bytes: Uint8Array): GltfContainer | undefined {
  const { text, bin } = chunks(bytes)
  try {
    const json: unknown = JSON.parse(text)
    return isRecord(json) ? { json, bin } : undefined
  } catch {
    return undefined
  }
}

/** The JSON's text (the whole of a .gltf, a GLB's JSON chunk) and a GLB's binary chunk. */
function chunks(bytes: Uint8Array): { text: string; bin?: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let jsonBytes = bytes
  let bin: Uint8Array | undefined
  if (bytes.length >= 12 && view.getUint32(0, true) === GLB_MAGIC) {
    let at = 12
    jsonBytes = new Uint8Array()
    while (at + 8 <= bytes.length) {
      const length = view.getUint32(at, true)
      const type = view.getUint32(at + 4, true)
      const body = bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + length))
      if (type === JSON_CHUNK && jsonBytes.length === 0) jsonBytes = body
      else if (type === BIN_CHUNK && bin === undefined) bin = body
      at += 8 + length
    }
  }
  return { text: UTF8.decode(jsonBytes), bin }
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const index = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined

/** The bytes of a data: URI with base64 content, or undefined. */
export function dataUriBytes(uri: string): Uint8Array | undefined {
  const match = /^data:[^,]*;base64,/i.exec(uri)
  if (!match) return undefined
  try {
    const binary = atob(uri.slice(match[0].length))
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  } catch {
    return undefined
  }
}

/**
 * Each image's bytes, by its index: from a buffer view (of the GLB's binary chunk, a data: URI
 * buffer or an external buffer) or from its own URI (a data: URI or an external file).
 * `external(uri)` gives the bytes of an external file already fetched, by the URI as written.
 */
export function imageBytes(
  container: GltfContainer,
  external: (uri: string) => Uint8Array | undefined,
): (Uint8Array | undefined)[] {
  const { json, bin } = container
  const buffers = list(json.buffers)
  const views = list(json.bufferViews)
  const bufferBytes = (at: number): Uint8Array | undefined => {
    const buffer = buffers[at]
    if (!isRecord(buffer)) return undefined
    if (typeof buffer.uri !== 'string') return at === 0 ? bin : undefined
    return dataUriBytes(buffer.uri) ?? external(buffer.uri)
  }
  return list(json.images).map((image) => {
    if (!isRecord(image)) return undefined
    if (typeof image.uri === 'string') return dataUriBytes(image.uri) ?? external(image.uri)
    const view = views[index(image.bufferView) ?? -1]
    if (!isRecord(view)) return undefined
    const bytes = bufferBytes(index(view.buffer) ?? -1)
    const offset = index(view.byteOffset ?? 0)
    const length = index(view.byteLength)
    if (!bytes || offset === undefined || length === undefined || offset + length > bytes.length)
      return undefined
    return bytes.subarray(offset, offset + length)
  })
}
