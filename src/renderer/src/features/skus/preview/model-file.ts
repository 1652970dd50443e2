import { TextureLoader, type Object3D } from 'three'
import { GLTFLoader, type GLTFParser } from 'three/addons/loaders/GLTFLoader.js'
import { messageOf } from '#shared/error-message.ts'

/**
 * Turns the bytes of a 3D asset into a three.js object, without the network: the renderer's CSP
 * lets it fetch nothing, so only a self-contained binary glTF (.glb) can be shown. Anything else is
 * refused up front with a reason a person can act on, rather than failing halfway (or tripping
 * the CSP) inside the loader.
 */

const GLB_MAGIC = 0x46546c67 // "glTF"
const JSON_CHUNK = 0x4e4f534a

/** Extensions that need decoders the preview does not bundle (they would be fetched from a CDN). */
const UNSUPPORTED_EXTENSIONS: Record<string, string> = {
  KHR_draco_mesh_compression: 'Draco-compressed meshes',
  EXT_meshopt_compression: 'meshopt-compressed meshes',
  KHR_texture_basisu: 'KTX2 (Basis) textures',
  EXT_texture_webp: 'WebP textures without a fallback',
  EXT_texture_avif: 'AVIF textures without a fallback',
}

interface GltfJson {
  buffers?: Array<{ uri?: string }>
  images?: Array<{ uri?: string }>
  extensionsRequired?: string[]
}

/** Reads the JSON chunk of a GLB; throws with the reason when the bytes are not one. */
function glbJson(bytes: Uint8Array): GltfJson {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength < 20 || view.getUint32(0, true) !== GLB_MAGIC) {
    const text = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart()
    if (text.startsWith('{')) {
      throw new Error('it is a .gltf (JSON) file; the preview shows self-contained .glb files only')
    }
    if (/^<(!doctype|html)/i.test(text)) throw new Error('the address returned a web page, not a .glb model')
    throw new Error('it is not a .glb (binary glTF) model')
  }
  const length = view.getUint32(12, true)
  if (view.getUint32(16, true) !== JSON_CHUNK || 20 + length > bytes.byteLength) {
    throw new Error('the .glb file is damaged (its JSON part is missing)')
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length))) as GltfJson
  } catch {
    throw new Error('the .glb file is damaged (its JSON part does not parse)')
  }
}

/** Says why a GLB cannot be shown here, or nothing when it can. */
export function unsupportedReason(json: GltfJson): string | undefined {
  const needs = (json.extensionsRequired ?? []).filter((name) => UNSUPPORTED_EXTENSIONS[name])
  if (needs.length) {
    return `it needs ${needs.map((name) => UNSUPPORTED_EXTENSIONS[name]).join(' and ')}, which the preview does not decode`
  }
  // The GLB's own binary chunk is the buffer without a uri; anything with one lives elsewhere.
  const external = [
    ...(json.buffers ?? []).map((buffer) => buffer.uri),
    ...(json.images ?? []).map((image) => image.uri).filter((uri) => !uri?.startsWith('data:image/')),
  ].filter((uri): uri is string => typeof uri === 'string')
  if (external.length) {
    return `it refers to other files (${external.slice(0, 2).join(', ')}); the preview shows self-contained .glb files only`
  }
  return undefined
}

/**
 * GLTFLoader decodes embedded images with `fetch(blob:…)` (ImageBitmapLoader), which the CSP's
 * `connect-src 'self'` refuses. An <img> from a blob: address is allowed (`img-src blob:`), so
 * this plugin swaps in the TextureLoader, which uses one.
 */
function imageElementTextures(parser: GLTFParser) {
  const loader = new TextureLoader(parser.options.manager)
  ;(parser as GLTFParser & { textureLoader: TextureLoader }).textureLoader = loader
  return { name: 'catalog-desk:image-element-textures' }
}

/** The model's scene graph, from the bytes of a self-contained .glb. */
export async function parseModel(bytes: Uint8Array): Promise<Object3D> {
  const reason = unsupportedReason(glbJson(bytes))
  if (reason) throw new Error(reason)
  const loader = new GLTFLoader().register(imageElementTextures)
  // A copy: GLTFLoader takes an ArrayBuffer, and the bytes may be a view into a larger one.
  const buffer = bytes.slice().buffer
  try {
    const gltf = await loader.parseAsync(buffer, '')
    return gltf.scene
  } catch (error) {
    const message = messageOf(error)
    throw new Error(`the model could not be read (${message.replace(/^THREE\.GLTFLoader:\s*/, '')})`, {
      cause: error,
    })
  }
}
