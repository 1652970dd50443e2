import { Texture, type Object3D } from 'three'
import { GLTFLoader, type GLTFParser } from 'three/addons/loaders/GLTFLoader.js'
import { resolveReference } from '#shared/asset-checks/address.ts'
import { dataUriBytes, readContainer as readGltfContainer } from '#shared/asset-checks/gltf-container.ts'
import { sniff } from '#shared/asset-checks/picture-sniff.ts'
import { messageOf } from '#shared/error-message.ts'
import { DECODED_EXTENSIONS, unshownExtensions } from '#shared/gltf-extensions.ts'
import { Ktx2Textures, modelDecoders, type TranscodeTexture } from './model-decoders.ts'

/**
 * Turns the bytes of a 3D asset into a three.js object, in the preview's worker. Nothing here
 * fetches (the CSP lets the app reach only its own origin): a binary glTF (.glb) comes whole, and
 * the files a .gltf names beside it (buffers, textures) are fetched through main by the caller,
 * then handed to the loader as bytes. So the loader never touches the network, and every address
 * a model names goes through main's checks, as the model's own did.
 */

/** More files than a real model names beside it; a .gltf naming more is refused before any is fetched. */
export const MAX_MODEL_FILES = 32

interface GltfJson {
  buffers?: Array<{ uri?: string; byteLength?: number }>
  bufferViews?: Array<{ buffer: number; byteOffset?: number; byteLength: number }>
  images?: Array<{ uri?: string; bufferView?: number; mimeType?: string; name?: string }>
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
  /** Transcodes a KTX2 texture, through main. */
  transcodeTexture: TranscodeTexture
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

/** The model's JSON and binary chunk (the asset checks' reader), or why it is not a model in words. */
function readContainer(bytes: Uint8Array): Container {
  const kind = sniff(bytes)?.type
  const glb = kind === 'model/gltf-binary' && bytes.byteLength >= 12
  if (glb) {
    const declared = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true)
    if (declared > bytes.byteLength) {
      throw new Error(`the .glb file is cut short: it says ${declared} bytes and has ${bytes.byteLength}`)
    }
  } else if (kind === 'text/html') {
    throw new Error('the address returned a web page, not a glTF model')
  } else if (kind !== 'model/gltf+json' && kind !== 'application/json') {
    throw new Error('it is not a glTF model (.glb or .gltf)')
  }
  const container = readGltfContainer(bytes)
  if (!container) {
    throw new Error(
      glb
        ? 'the .glb file is damaged (its JSON part is missing or does not parse)'
        : 'the .gltf file is damaged (its JSON does not parse)',
    )
  }
  return { json: container.json as GltfJson, binary: container.bin }
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

/**
 * The bytes of a `data:` address: base64 as the asset checks read it, or percent-encoded text,
 * which glTF allows too.
 */
function dataBytes(uri: string): Uint8Array {
  const bytes = dataUriBytes(uri)
  if (bytes) return bytes
  const comma = uri.indexOf(',')
  if (comma < 0 || /;base64$/i.test(uri.slice(0, comma))) {
    throw new Error('a data: address in the model is damaged')
  }
  return new TextEncoder().encode(decodeURIComponent(uri.slice(comma + 1)))
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
  const href = resolveReference(base, uri)
  if (!href) throw new Error(`it names a file at an address that is not valid (${uri})`)
  if (!/^https?:/.test(href)) {
    throw new Error(
      `it names a file that is not on the web (${uri}); only http and https addresses are fetched`,
    )
  }
  return href
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
    // The type the bytes are, when the model does not say (GLTFLoader labels the picture with it).
    image.mimeType ??= sniff(bytes)?.type
    image.bufferView = json.bufferViews.length - 1
    delete image.uri
  }
  // A .glb's binary chunk is its first buffer, the one without an address.
  if (container.binary && json.buffers?.[0] && !container.json.buffers?.[0]?.uri)
    buffers.set(0, container.binary)
  return { json, buffers }
}

/** A PNG, JPEG or WebP picture of the model, decoded from its bytes as three's ImageBitmapLoader would. */
async function bitmapTexture(bytes: ArrayBuffer, type: string | undefined): Promise<Texture> {
  const bitmap = await createImageBitmap(new Blob([bytes], type ? { type } : {}), {
    premultiplyAlpha: 'none',
    colorSpaceConversion: 'none',
  })
  const texture = new Texture(bitmap)
  texture.userData.mimeType = type
  texture.needsUpdate = true
  return texture
}

/**
 * GLTFLoader reads a buffer with `fetch`, and decodes an image with `fetch(blob:…)`
 * (ImageBitmapLoader): the CSP's `connect-src 'self'` refuses both. This plugin hands it each
 * buffer's bytes, and decodes each picture from its buffer view's bytes with `createImageBitmap`
 * (every picture has one: handedOver above makes it so). A KTX2 picture goes to its own loader,
 * which reads the bytes itself.
 */
function bytesNotFetches(buffers: ReadonlyMap<number, Uint8Array>) {
  return (parser: GLTFParser) => {
    const withBytes = parser as GLTFParser & {
      json: { images?: Array<{ bufferView?: number; mimeType?: string }> }
      sourceCache: Record<number, Promise<Texture>>
      loadBuffer(index: number): Promise<ArrayBuffer>
      loadImageSource(source: number, loader: unknown): Promise<Texture>
    }
    withBytes.loadBuffer = (index) => {
      const bytes = buffers.get(index)
      if (!bytes) return Promise.reject(new Error(`buffer ${index} has no data`))
      // A copy: the loader takes an ArrayBuffer, and the bytes may be a view into a larger one.
      return Promise.resolve(bytes.slice().buffer)
    }
    const loadImageSource = withBytes.loadImageSource.bind(parser)
    withBytes.loadImageSource = (source, loader) => {
      const image = withBytes.json.images?.[source]
      if ((loader as { isKTX2Loader?: boolean }).isKTX2Loader || image?.bufferView === undefined) {
        return loadImageSource(source, loader)
      }
      // As GLTFLoader does: decoded once, each texture using it gets a copy.
      const cached = withBytes.sourceCache[source]
      if (cached) return cached.then((texture) => texture.clone())
      const decoded = parser
        .getDependency('bufferView', image.bufferView)
        .then((view: ArrayBuffer) => bitmapTexture(view, image.mimeType))
      withBytes.sourceCache[source] = decoded
      return decoded
    }
    return { name: 'catalog-desk:bytes-not-fetches' }
  }
}

/** Each image of a model as a person would know it: its name, else its file, else its number. */
function imageNames(json: GltfJson): string[] {
  return (json.images ?? []).map((image, index) => {
    const file = image.uri?.startsWith('data:') ? undefined : image.uri
    const name = image.name || file
    return name ? `“${name}”` : `number ${index + 1}`
  })
}

/** The model's scene graph, and what it took to show it. */
export async function parseModel(source: ModelSource): Promise<LoadedModel> {
  const container = readContainer(source.bytes)
  const reason = unsupportedReason(container.json)
  if (reason) throw new Error(reason)
  const files = await namedFiles(container.json, source)
  const { json, buffers } = handedOver(container, files)
  const loader = new GLTFLoader().register(bytesNotFetches(buffers))
  const textures = new Ktx2Textures(imageNames(container.json), source.transcodeTexture)
  await modelDecoders(json.extensionsUsed ?? [], loader, textures)
  let scene: Object3D
  try {
    scene = (await loader.parseAsync(JSON.stringify(json), '')).scene
  } catch (error) {
    const message = messageOf(error)
    throw new Error(`the model could not be read (${message.replace(/^THREE\.\w+:\s*/, '')})`, {
      cause: error,
    })
  }
  // GLTFLoader leaves a texture it could not load out of the model and says nothing.
  if (textures.failure) throw new Error(textures.failure)
  return {
    scene,
    decoders: decodersOf(json),
    extensions: [...(json.extensionsUsed ?? [])],
    files: [...files.keys()].filter((uri) => !uri.startsWith('data:')).length,
  }
}
