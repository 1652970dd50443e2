import {
  DataTexture,
  LinearFilter,
  LinearMipmapLinearFilter,
  NoColorSpace,
  RGBAFormat,
  SRGBColorSpace,
  UnsignedByteType,
  type Texture,
} from 'three'
import type { GLTFLoader, GLTFParser } from 'three/addons/loaders/GLTFLoader.js'
import type { DRACOLoader } from 'three/addons/loaders/DRACOLoader.js'
import type { KTX2Loader } from 'three/addons/loaders/KTX2Loader.js'
import type { TranscodedTexture } from '#shared/ipc.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * The decoders compressed models need (Draco meshes, meshopt buffers, KTX2 textures), from three's
 * own loaders. Their decoder files are named by the loaders relative to themselves (`new URL(…,
 * import.meta.url)`), so the build emits them beside the app's other files and they are served
 * from its origin: nothing comes from a CDN, and nothing is loaded until a model needs it. Each
 * decoder is made once for the session, so its workers and compiled WebAssembly serve every model
 * after the first.
 *
 * Draco decodes in workers that three's loader builds from blob: addresses, and both compile
 * WebAssembly: the CSP allows `worker-src blob:` and `'wasm-unsafe-eval'` for them (see
 * src/main/content-security-policy.ts). KTX2 textures are transcoded by main instead: three's Basis
 * transcoder builds its bindings with `new Function`, which the CSP refuses in the page and its
 * workers alike (src/node/ktx2-transcoder.ts).
 */

/** Decoder workers kept at most: the preview shows one model at a time, and the machine has others to run. */
const WORKER_LIMIT = 2

let draco: Promise<DRACOLoader> | undefined

function dracoLoader(): Promise<DRACOLoader> {
  // The glTF build of Draco (meshes only: smaller than the full decoder), as three's docs advise.
  draco ??= import('three/addons/loaders/DRACOLoader.js').then(({ DRACOLoader, DRACO_GLTF_CONFIG }) =>
    new DRACOLoader().setDecoderPath(DRACO_GLTF_CONFIG).setWorkerLimit(WORKER_LIMIT),
  )
  return draco
}

async function meshoptDecoder() {
  const { MeshoptDecoder } = await import('three/addons/libs/meshopt_decoder.module.js')
  await MeshoptDecoder.ready
  return MeshoptDecoder
}

/** A texture of plain pixels, every level as main transcoded it: nothing left for the GPU to make. */
function pixelTexture({ width, height, srgb, levels }: TranscodedTexture): DataTexture {
  const texture = new DataTexture(levels[0]!.data, width, height, RGBAFormat, UnsignedByteType)
  texture.mipmaps = levels.map(({ data, width, height }) => ({
    data,
    width,
    height,
  })) as typeof texture.mipmaps
  texture.generateMipmaps = false
  texture.minFilter = levels.length > 1 ? LinearMipmapLinearFilter : LinearFilter
  texture.magFilter = LinearFilter
  texture.colorSpace = srgb ? SRGBColorSpace : NoColorSpace
  texture.needsUpdate = true
  return texture
}

/** Transcodes a KTX2 texture through main; `load` names the model's load (below). */
export type TranscodeTexture = (bytes: Uint8Array<ArrayBuffer>, load: string) => Promise<TranscodedTexture>

/**
 * A model's KTX2 textures, transcoded through main as one preview load: the load's id goes with
 * each texture, and main adds their costs up against its budget a model (and refuses any one over
 * its budget a texture: src/node/ktx2-transcoder-thread.ts). GLTFLoader keeps a texture that
 * failed out of the model without a word, so the first failure is kept here, with the texture's
 * name, for the caller to say.
 */
export class Ktx2Textures {
  /** The id main counts this model's textures under. */
  readonly load = crypto.randomUUID()
  /** Why a texture was not shown, naming it; the first one, when any. */
  failure: string | undefined

  /** Each image of the model as a person would know it, by its index. */
  private readonly names: readonly string[]
  private readonly transcode: TranscodeTexture

  constructor(names: readonly string[], transcode: TranscodeTexture) {
    this.names = names
    this.transcode = transcode
  }

  /** The loader GLTFLoader is given; `plugin` hands each image one of its own instead. */
  readonly loader = this.loaderFor(undefined)

  /**
   * What GLTFLoader asks of a KTX2 loader for one image of the model (`parse` of its bytes), done
   * through main. Nothing else of KTX2Loader is used: the model's textures always come as bytes
   * (model-file.ts hands the loader every file a model names).
   */
  private loaderFor(image: number | undefined): KTX2Loader {
    const name = image === undefined ? 'of the model' : (this.names[image] ?? `number ${image + 1}`)
    return {
      isKTX2Loader: true,
      parse: (buffer: ArrayBuffer, onLoad: (texture: Texture) => void, onError: (error: unknown) => void) => {
        this.transcode(new Uint8Array(buffer), this.load).then(
          (texture) => onLoad(pixelTexture(texture)),
          (error: unknown) => {
            this.failure ??= `its texture ${name} was not shown (${messageOf(error)})`
            onError(error)
          },
        )
      },
    } as unknown as KTX2Loader
  }

  /**
   * A GLTFLoader plugin that gives each image its own loader above, so a failure names the image:
   * GLTFLoader hands the one KTX2 loader it is given the bytes alone.
   */
  readonly plugin = (parser: GLTFParser) => {
    const withSources = parser as GLTFParser & {
      loadImageSource(source: number, loader: unknown): Promise<Texture>
    }
    const load = withSources.loadImageSource.bind(parser)
    withSources.loadImageSource = (source, loader) =>
      load(source, (loader as { isKTX2Loader?: boolean }).isKTX2Loader ? this.loaderFor(source) : loader)
    return { name: 'catalog-desk:named-ktx2-textures' }
  }
}

/** Gives the loader the decoders a model's extensions call for, loading each the first time. */
export async function modelDecoders(
  extensions: readonly string[],
  loader: GLTFLoader,
  textures: Ktx2Textures,
) {
  const uses = new Set(extensions)
  if (uses.has('KHR_draco_mesh_compression')) loader.setDRACOLoader(await dracoLoader())
  if (uses.has('EXT_meshopt_compression') || uses.has('KHR_meshopt_compression')) {
    loader.setMeshoptDecoder(await meshoptDecoder())
  }
  if (uses.has('KHR_texture_basisu')) loader.register(textures.plugin).setKTX2Loader(textures.loader)
}
