import { DataTexture, EquirectangularReflectionMapping, LinearFilter, SRGBColorSpace, Texture } from 'three'
import { EXRLoader } from 'three/addons/loaders/EXRLoader.js'
import { HDRLoader } from 'three/addons/loaders/HDRLoader.js'
import { messageOf } from '#shared/error-message.ts'

/**
 * Turns the bytes of an environment image into an equirectangular texture, without the network:
 * a Radiance .hdr or an OpenEXR .exr (linear light, the formats lighting comes in: EXR is what
 * try-on pipelines and HDRI libraries publish) or a PNG, JPEG or WebP (sRGB). The format is read
 * from the bytes, not the address or the served type, which servers often get wrong.
 */

type ImageFormat = 'hdr' | 'exr' | 'png' | 'jpeg' | 'webp'

/** What a person reads of the formats taken. */
const FORMATS = '.hdr, .exr, .png, .jpg or .webp'

function formatOf(bytes: Uint8Array): ImageFormat | undefined {
  const ascii = new TextDecoder('latin1').decode(bytes.subarray(0, 12))
  if (ascii.startsWith('#?RADIANCE') || ascii.startsWith('#?RGBE')) return 'hdr'
  if (bytes[0] === 0x76 && bytes[1] === 0x2f && bytes[2] === 0x31 && bytes[3] === 0x01) return 'exr'
  if (bytes[0] === 0x89 && ascii.slice(1, 4) === 'PNG') return 'png'
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'webp'
  return undefined
}

export async function environmentTexture(bytes: Uint8Array): Promise<Texture> {
  const format = formatOf(bytes)
  if (!format) {
    const start = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart()
    if (/^<(!doctype|html)/i.test(start)) throw new Error('the address returned a web page, not an image')
    throw new Error(`it is not an image the preview reads (${FORMATS})`)
  }
  const texture =
    format === 'hdr' || format === 'exr' ? linearTexture(bytes, format) : await bitmapTexture(bytes, format)
  texture.mapping = EquirectangularReflectionMapping
  return texture
}

/** A Radiance or OpenEXR image, decoded in the page (three's loaders; EXR's zip with fflate's synchronous inflate). */
function linearTexture(bytes: Uint8Array, format: 'hdr' | 'exr'): DataTexture {
  const loader = format === 'hdr' ? new HDRLoader() : new EXRLoader()
  try {
    // A copy: the loader takes an ArrayBuffer, and the bytes may be a view into a larger one.
    return loader.createDataTexture(bytes.slice().buffer)
  } catch (error) {
    const message = messageOf(error)
    throw new Error(`the .${format} file could not be read (${message.replace(/^THREE\.\w+:\s*/, '')})`, {
      cause: error,
    })
  }
}

async function bitmapTexture(bytes: Uint8Array, format: Exclude<ImageFormat, 'hdr'>): Promise<Texture> {
  let bitmap: ImageBitmap
  try {
    // Decoded straight from memory: no URL to fetch, nothing for the CSP to weigh. Flipped here
    // because WebGL ignores the flip flag for bitmaps (three's ImageBitmapLoader does the same).
    bitmap = await createImageBitmap(new Blob([bytes.slice()], { type: `image/${format}` }), {
      imageOrientation: 'flipY',
    })
  } catch {
    throw new Error(`the ${format.toUpperCase()} image could not be decoded`)
  }
  const texture = new Texture(bitmap)
  texture.flipY = false
  texture.colorSpace = SRGBColorSpace
  texture.minFilter = LinearFilter
  texture.generateMipmaps = false
  texture.needsUpdate = true
  return texture
}

/** Frees what a texture holds outside WebGL (a decoded bitmap) as well as its GPU copy. */
export function disposeTexture(texture: Texture): void {
  texture.dispose()
  const image: unknown = texture.image
  if (typeof ImageBitmap !== 'undefined' && image instanceof ImageBitmap) image.close()
}
