import type { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js'
import type { DRACOLoader } from 'three/addons/loaders/DRACOLoader.js'

/**
 * The decoders compressed models need (Draco meshes, meshopt buffers), from three's own loaders.
 * Their decoder files are named by the loaders relative to themselves (`new URL(…,
 * import.meta.url)`), so the build emits them beside the app's other files and they are served from
 * its origin: nothing comes from a CDN, and nothing is loaded until a model needs it. Each decoder
 * is made once for the session, so its workers and compiled WebAssembly serve every model after
 * the first.
 *
 * Draco decodes in workers that three's loader builds from blob: addresses, and both compile
 * WebAssembly: the CSP allows `worker-src blob:` and `'wasm-unsafe-eval'` for them (see
 * src/main/content-security-policy.ts). KTX2 textures are not decoded yet (src/shared/gltf-extensions.ts).
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

/** Gives the loader the decoders a model's extensions call for, loading each the first time. */
export async function modelDecoders(extensions: readonly string[], loader: GLTFLoader) {
  const uses = new Set(extensions)
  if (uses.has('KHR_draco_mesh_compression')) loader.setDRACOLoader(await dracoLoader())
  if (uses.has('EXT_meshopt_compression') || uses.has('KHR_meshopt_compression')) {
    loader.setMeshoptDecoder(await meshoptDecoder())
  }
}
