import {
  DataTexture,
  EquirectangularReflectionMapping,
  PMREMGenerator,
  HalfFloatType,
  LinearFilter,
  LinearMipmapLinearFilter,
  LinearSRGBColorSpace,
  MathUtils,
  SRGBColorSpace,
  Texture,
  WebGLCubeRenderTarget,
  type WebGLRenderTarget,
  type WebGLRenderer,
} from 'three'
import { EXRLoader } from 'three/addons/loaders/EXRLoader.js'
import { HDRLoader } from 'three/addons/loaders/HDRLoader.js'
import { sniff } from '#shared/asset-checks/picture-sniff.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * Turns the bytes of an environment image into an equirectangular texture, without the network:
 * a Radiance .hdr or an OpenEXR .exr (linear light, the formats lighting comes in: EXR is what
 * try-on pipelines and HDRI libraries publish) or a PNG, JPEG or WebP (sRGB). The format is read
 * from the bytes, not the address or the served type, which servers often get wrong.
 */

/** The formats taken, by the media type the asset checks' sniffer reads from the bytes. */
const FORMATS = {
  'image/vnd.radiance': 'hdr',
  'image/x-exr': 'exr',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
} as const
type ImageFormat = (typeof FORMATS)[keyof typeof FORMATS]

/** What a person reads of the formats taken. */
const FORMAT_WORDS = '.hdr, .exr, .png, .jpg or .webp'

export async function environmentTexture(bytes: Uint8Array): Promise<Texture> {
  const type = sniff(bytes)?.type ?? ''
  const format = Object.hasOwn(FORMATS, type) ? FORMATS[type as keyof typeof FORMATS] : undefined
  if (!format) {
    if (type === 'text/html') throw new Error('the address returned a web page, not an image')
    throw new Error(`it is not an image the preview reads (${FORMAT_WORDS})`)
  }
  const texture =
    format === 'hdr' || format === 'exr' ? linearTexture(bytes, format) : await bitmapTexture(bytes, format)
  texture.mapping = EquirectangularReflectionMapping
  return texture
}

/** A Radiance or OpenEXR image, decoded in the preview's worker (three's loaders; EXR's zip with fflate's synchronous inflate). */
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

/** The side of the smallest cube PMREMGenerator makes; smaller ones are made here. */
const PMREM_MIN_SIZE = 256
/** The side of a prefiltered cube's last level (PMREMGenerator's last level is 8 texels too). */
const LAST_LEVEL_SIZE = 8
/**
 * The smallest cube made here: four levels. PMREMGenerator filters a cube's last three levels
 * from a small copy of the picture, and its first, the mirror's, from the picture itself; with
 * fewer levels the mirror's would be one of the three, and that filter divides by zero at
 * roughness 0.
 */
const SMALLEST_SIZE = 64

/**
 * The cube to prefilter an equirectangular picture into, when the picture holds less detail than
 * PMREMGenerator's smallest cube, or when WebGL is drawn in `software`; undefined otherwise, for
 * PMREMGenerator's own.
 *
 * PMREMGenerator sizes a cube's side at a quarter of the picture's width, and never under 256
 * texels. The bundled studio is 256 × 128: 64 texels a side hold all it has, and 256 filter
 * sixteen times as many texels. On a computer drawing WebGL without a graphics card (SwiftShader)
 * that filtering took about 3 s of the GPU process at every opening of an editor, and the window
 * did not repaint until it ended; in a cube of the picture's own size, 0.5 to 0.8 s
 * (`preview-paint-gap` in docs/benchmarks.md). So in software every picture gets the smallest cube:
 * a SKU's own 2,048-pixel image would take a cube of 512 a side, and seconds more of a window
 * that does not repaint. Its reflections are softer for it, and the preview says so.
 *
 * The cube is laid out as PMREMGenerator's are (one level a roughness, from a mirror's down to
 * `LAST_LEVEL_SIZE` texels, `PMREMGenerator.lodToRoughness`), which is what the renderer reads
 * of a texture marked `isPMREMTexture`: it is passed to `fromEquirectangular` to fill.
 */
export function prefilteredTarget(pictureWidth: number, software = false): WebGLCubeRenderTarget | undefined {
  const detail = MathUtils.floorPowerOfTwo(Math.max(1, pictureWidth / 4))
  const size = software ? SMALLEST_SIZE : Math.max(SMALLEST_SIZE, detail)
  if (size >= PMREM_MIN_SIZE) return undefined
  const target = new WebGLCubeRenderTarget(size, {
    minFilter: LinearMipmapLinearFilter,
    generateMipmaps: false,
    type: HalfFloatType,
    colorSpace: LinearSRGBColorSpace,
    depthBuffer: false,
  })
  const levels = target.texture.mipmaps as Array<{ width: number; height: number }>
  for (let side = size; side >= LAST_LEVEL_SIZE; side /= 2) levels.push({ width: side, height: side })
  target.texture.name = 'PMREM'
  target.texture.isPMREMTexture = true
  return target
}

/** A scene's light from its environment: the picture prefiltered into the cube above, kept until the next. */
export class EnvironmentLighting {
  private readonly generator: PMREMGenerator
  private readonly software: boolean
  private current: WebGLRenderTarget | undefined

  constructor(renderer: WebGLRenderer) {
    this.generator = new PMREMGenerator(renderer)
    this.software = drawsInSoftware(renderer.getContext())
  }

  /**
   * Lights from an equirectangular picture, which it takes over (and disposes); true when its
   * reflections are softened: the cube holds less than the picture (WebGL drawn in software).
   */
  set(equirectangular: Texture): boolean {
    const { width } = equirectangular.image as { width: number }
    const cube = prefilteredTarget(width, this.software)
    const next = this.generator.fromEquirectangular(equirectangular, cube)
    disposeTexture(equirectangular)
    this.current?.dispose()
    this.current = next
    return !!cube && cube.width < MathUtils.floorPowerOfTwo(Math.max(1, width / 4))
  }

  /** The prefiltered cube to light with, once `set`. */
  texture(): Texture | null {
    return this.current?.texture ?? null
  }

  dispose(): void {
    this.current?.dispose()
    this.generator.dispose()
  }
}

/**
 * Whether WebGL is drawn without a graphics card: SwiftShader (Chromium's own, where the GPU is
 * missing or refused), Mesa's llvmpipe or softpipe, Windows' Basic Render Driver. Read from the
 * renderer's unmasked name; a browser that hides it is taken for one with a graphics card.
 */
export function drawsInSoftware(gl: WebGLRenderingContext | WebGL2RenderingContext): boolean {
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  const name: unknown = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)
  return typeof name === 'string' && /swiftshader|llvmpipe|softpipe|basic render driver/i.test(name)
}
