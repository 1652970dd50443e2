import { TextureLoader, type Object3D } from 'three'
import { GLTFLoader, type GLTFParser } from 'three/addons/loaders/GLTFLoader.js'
import { messageOf } from '#shared/error-message.ts'
import { DECODED_EXTENSIONS, unshownExtensions } from '#shared/gltf-extensions.ts'
import { modelDecoders } from './model-decoders.ts'

/**
 * Turns the bytes of a 3D asset into a three.js object. The page fetches nothing itself (its CSP
 * lets it reach only its own origin): a binary glTF (.glb) comes whole, and the files a .gltf
 * names beside it (buffers, textures) are fetched through main by the caller, then handed to the
 * loader as bytes. So the loader never touches the network, and every address a model names goes
 * through main's checks, as the model's own did.
 */

const GLB_MAGIC = 0x46546c67 // "glTF"
const JSON_CHUNK = 0x4e4f534a
const BIN_CHUNK = 0x004e4942
/** More files than a real model names beside it; a .gltf naming more is refused before any is fetched. */
export const MAX_MODEL_FILES = 32

interface GltfJson {
  buffers?: Array<{ uri?: string; byteLength?: number }>
  bufferViews?: Array<{ buffer: number; byteOffset?: number; byteLength: number }>
  images?: Array<{ uri?: string; bufferView?: number; mimeType?: string }>
  extensionsUsed?: string[]
  extensionsRequired?: string[]
}

/** A model's JSON and, for a .glb, its binary chunk. */
interface Container {
  json: GltfJson
  binary?: Uint8Array
}

/** What the caller gives besides the bytes. */
export interface ModelSource {
  bytes: Uint8Array
  /** Where the model was fetched from: a .gltf's files are found relative to it. None for a bundled sample. */
  address?: string
  /** Fetches a file a .gltf names, through main's guarded fetcher. */
  fetchFile: (address: string) => Promise<Uint8Array>
}

export interface LoadedModel {
  scene: Object3D
  /** The decoders the model needed, in words: "Draco", "meshopt", "WebP". */
  decoders: string[]
  /** The glTF extensions it uses, as it lists them. */
  extensions: string[]
  /** How many files beside it were fetched (a .gltf's buffers and textures). */
  files: number
}

function readContainer(bytes: Uint8Array): Container {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength >= 12 && view.getUint32(0, true) === GLB_MAGIC) return readGlb(bytes, view)
  const text = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart()
  if (/^<(!doctype|html)/i.test(text)) throw new Error('the address returned a web page, not a glTF model')
  if (!text.startsWith('{')) throw new Error('it is not a glTF model (.glb or .gltf)')
  try {
    return { json: JSON.parse(new TextDecoder().decode(bytes)) as GltfJson }
  } catch {
    throw new Error('the .gltf file is damaged (its JSON does not parse)')
  }
}

function readGlb(bytes: Uint8Array, view: DataView): Container {
  if (view.getUint32(8, true) > bytes.byteLength) {
    throw new Error(
      `the .glb file is cut short: it says ${view.getUint32(8, true)} bytes and has ${bytes.byteLength}`,
    )
  }
  const length = bytes.byteLength >= 20 ? view.getUint32(12, true) : 0
  if (bytes.byteLength < 20 || view.getUint32(16, true) !== JSON_CHUNK || 20 + length > bytes.byteLength) {
    throw new Error('the .glb file is damaged (its JSON part is missing)')
  }
  let json: GltfJson
  try {
    json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length))) as GltfJson
  } catch {
    throw new Error('the .glb file is damaged (its JSON part does not parse)')
  }
  const at = 20 + length
  const binary =
    at + 8 <= bytes.byteLength && view.getUint32(at + 4, true) === BIN_CHUNK
      ? bytes.subarray(at + 8, at + 8 + view.getUint32(at, true))
      : undefined
  return { json, binary }
}

/** Says why a model cannot be shown here, or nothing when it can. */
export function unsupportedReason(json: GltfJson): string | undefined {
  const unshown = unshownExtensions(json.extensionsRequired ?? [])
  if (unshown.length) return `it needs ${unshown.join(' and ')}, which the preview does not show`
  return undefined
}

/** The decoders a model needs, in words, each once. */
function decodersOf(json: GltfJson): string[] {
  const used = json.extensionsUsed ?? []
  return [
    ...new Set(
      used.flatMap((name) =>
        Object.hasOwn(DECODED_EXTENSIONS, name)
          ? [DECODED_EXTENSIONS[name as keyof typeof DECODED_EXTENSIONS]]
          : [],
      ),
    ),
  ]
}

/** The bytes of a `data:` address (base64 or percent-encoded), as a file's bytes. */
function dataBytes(uri: string): Uint8Array {
  const comma = uri.indexOf(',')
  const head = uri.slice(5, comma)
  const body = uri.slice(comma + 1)
  if (comma < 0) throw new Error('a data: address in the model has no data')
  if (head.endsWith(';base64')) return Uint8Array.from(atob(body), (char) => char.charCodeAt(0))
  return new TextEncoder().encode(decodeURIComponent(body))
}

/**
 * The bytes of every file a model names by address (buffers and images, external or `data:`),
 * fetched once each. An external address is resolved against the model's own and must be http(s):
 * a model is data, and may name anything.
 */
async function namedFiles(json: GltfJson, source: ModelSource): Promise<Map<string, Uint8Array>> {
  const uris = [
    ...new Set(
      [...(json.buffers ?? []), ...(json.images ?? [])].flatMap((item) => (item.uri ? [item.uri] : [])),
    ),
  ]
  const external = uris.filter((uri) => !uri.startsWith('data:'))
  if (external.length > MAX_MODEL_FILES) {
    throw new Error(
      `it names ${external.length} files beside it; the preview fetches at most ${MAX_MODEL_FILES}`,
    )
  }
  const files = new Map<string, Uint8Array>()
  await Promise.all(
    uris.map(async (uri) => {
      if (uri.startsWith('data:')) return files.set(uri, dataBytes(uri))
      const address = resolved(uri, source.address)
      try {
        files.set(uri, await source.fetchFile(address))
      } catch (error) {
        throw new Error(`the file ${uri} it names could not be loaded (${messageOf(error)})`, {
          cause: error,
        })
      }
    }),
  )
  return files
}

function resolved(uri: string, base: string | undefined): string {
  if (!base)
    throw new Error(`it names a file beside it (${uri}), and a bundled sample has nowhere to find it`)
  let address: URL
  try {
    address = new URL(uri, base)
  } catch {
    throw new Error(`it names a file at an address that is not valid (${uri})`)
  }
  if (address.protocol !== 'https:' && address.protocol !== 'http:') {
    throw new Error(
      `it names a file that is not on the web (${uri}); only http and https addresses are fetched`,
    )
  }
  return address.href
}

/**
 * The model as the loader reads it: every buffer and image a model names by address becomes one
 * the loader is handed (an image gets a buffer view over a buffer of its own), so GLTFLoader takes
 * them all by the path it takes for a .glb's own bytes. The JSON is a copy; the model is not changed.
 */
function handedOver(container: Container, files: Map<string, Uint8Array>) {
  const json = structuredClone(container.json)
  const buffers = new Map<number, Uint8Array>()
  json.buffers?.forEach((buffer, index) => {
    if (!buffer.uri) return
    buffers.set(index, files.get(buffer.uri)!)
    delete buffer.uri
  })
  for (const image of json.images ?? []) {
    if (!image.uri) continue
    const bytes = files.get(image.uri)!
    ;(json.buffers ??= []).push({ byteLength: bytes.byteLength })
    buffers.set(json.buffers.length - 1, bytes)
    ;(json.bufferViews ??= []).push({ buffer: json.buffers.length - 1, byteLength: bytes.byteLength })
    image.mimeType ??= imageType(image.uri)
    image.bufferView = json.bufferViews.length - 1
    delete image.uri
  }
  // A .glb's binary chunk is its first buffer, the one without an address.
  if (container.binary && json.buffers?.[0] && !container.json.buffers?.[0]?.uri)
    buffers.set(0, container.binary)
  return { json, buffers }
}

/** The type a texture's address stands for, when the model does not say. */
function imageType(uri: string): string {
  const match = /^data:([^;,]+)/.exec(uri) ?? /\.(\w+)(?:[?#]|$)/.exec(uri)
  const kind = match?.[1]?.toLowerCase() ?? ''
  if (kind.includes('/')) return kind
  return (
    {
      png: 'image/png',
      jpg: 'image/jpeg',
      jpeg: 'image/jpeg',
      webp: 'image/webp',
      avif: 'image/avif',
      ktx2: 'image/ktx2',
    }[kind] ?? 'image/png'
  )
}

/**
 * GLTFLoader reads a buffer with `fetch`, and decodes an image with `fetch(blob:…)`
 * (ImageBitmapLoader): the CSP's `connect-src 'self'` refuses both. This plugin hands it each
 * buffer's bytes, and swaps in the TextureLoader, which decodes an image through an <img> from a
 * blob: address (`img-src blob:` allows it).
 */
function bytesNotFetches(buffers: ReadonlyMap<number, Uint8Array>) {
  return (parser: GLTFParser) => {
    const withBuffers = parser as GLTFParser & {
      textureLoader: TextureLoader
      loadBuffer(index: number): Promise<ArrayBuffer>
    }
    withBuffers.textureLoader = new TextureLoader(parser.options.manager)
    withBuffers.loadBuffer = (index) => {
      const bytes = buffers.get(index)
      if (!bytes) return Promise.reject(new Error(`buffer ${index} has no data`))
      // A copy: the loader takes an ArrayBuffer, and the bytes may be a view into a larger one.
      return Promise.resolve(bytes.slice().buffer)
    }
    return { name: 'catalog-desk:bytes-not-fetches' }
  }
}

/** The model's scene graph, and what it took to show it. */
export async function parseModel(source: ModelSource): Promise<LoadedModel> {
  const container = readContainer(source.bytes)
  const reason = unsupportedReason(container.json)
  if (reason) throw new Error(reason)
  const files = await namedFiles(container.json, source)
  const { json, buffers } = handedOver(container, files)
  const loader = new GLTFLoader().register(bytesNotFetches(buffers))
  await modelDecoders(json.extensionsUsed ?? [], loader)
  try {
    const gltf = await loader.parseAsync(JSON.stringify(json), '')
    return {
      scene: gltf.scene,
      decoders: decodersOf(json),
      extensions: [...(json.extensionsUsed ?? [])],
      files: [...files.keys()].filter((uri) => !uri.startsWith('data:')).length,
    }
  } catch (error) {
    const message = messageOf(error)
    throw new Error(`the model could not be read (${message.replace(/^THREE\.\w+:\s*/, '')})`, {
      cause: error,
    })
  }
}
