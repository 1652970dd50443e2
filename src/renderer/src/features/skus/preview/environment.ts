import {
  DataTexture,
  EquirectangularReflectionMapping,
  HalfFloatType,
  LinearFilter,
  LinearMipmapLinearFilter,
  LinearSRGBColorSpace,
  MathUtils,
  PMREMGenerator,
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

/** The side of a prefiltered cube's last level (PMREMGenerator's last level is 8 texels too). */
const LAST_LEVEL_SIZE = 8
/**
 * The cube made here: four levels. PMREMGenerator filters a cube's last three levels from a
 * 16-texel copy of the picture, and its first, the mirror's, from the picture itself; with fewer
 * levels the mirror's would be one of the three, and that filter divides by zero at roughness 0.
 */
const SOFTWARE_SIZE = 64

/**
 * The cube to prefilter an environment picture into where WebGL is drawn in `software`; undefined
 * with a graphics card, for PMREMGenerator's own.
 *
 * PMREMGenerator makes a cube a quarter of the picture's width a side, and never under 256 texels.
 * On a computer drawing WebGL without a graphics card (SwiftShader) filtering the bundled studio
 * (256 × 128) into 256 took 2.4 to 3.1 s of the GPU process at every opening of an editor, and the
 * window did not repaint until it ended; into 64, 0.5 to 0.8 s (`preview-paint-gap` in
 * docs/benchmarks.md). A SKU's own 2,048-pixel picture would take 512 a side. So in software every
 * picture gets 64. The studio holds no more than that; a larger picture's reflections are less
 * sharp, and the preview says so. With a graphics card the cube is three's, as before (there the
 * filtering runs on the card; these machines have none to measure it on): in 64, the level of
 * roughness 0.18 is filtered from the 16-texel copy, coarser than three's levels ever are.
 *
 * The cube is laid out as PMREMGenerator's are (one level a roughness, from a mirror's down to
 * `LAST_LEVEL_SIZE` texels, `PMREMGenerator.lodToRoughness`), which is what the renderer reads
 * of a texture marked `isPMREMTexture`: it is passed to `fromEquirectangular` to fill.
 */
export function prefilteredTarget(software: boolean): WebGLCubeRenderTarget | undefined {
  if (!software) return undefined
  const target = new WebGLCubeRenderTarget(SOFTWARE_SIZE, {
    minFilter: LinearMipmapLinearFilter,
    generateMipmaps: false,
    type: HalfFloatType,
    colorSpace: LinearSRGBColorSpace,
    depthBuffer: false,
  })
  const levels = target.texture.mipmaps as Array<{ width: number; height: number }>
  for (let side = SOFTWARE_SIZE; side >= LAST_LEVEL_SIZE; side /= 2)
    levels.push({ width: side, height: side })
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
    const cube = prefilteredTarget(this.software)
    let next: WebGLRenderTarget
    try {
      next = this.generator.fromEquirectangular(equirectangular, cube)
    } catch (error) {
      cube?.dispose()
      throw error
    } finally {
      disposeTexture(equirectangular)
    }
    this.current?.dispose()
    this.current = next
    // Softened: the picture holds more than the cube, a quarter of its width a side.
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
