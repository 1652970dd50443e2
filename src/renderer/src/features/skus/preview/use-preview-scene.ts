import { computed, onBeforeUnmount, onMounted, ref, watch, type Ref } from 'vue'
import type { PreviewAssetRequest } from '#shared/ipc.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { failureText, forgetPreviewAsset, loadPreviewAsset } from '#renderer/adapters/preview-assets.ts'
import { counted } from '#shared/counted.ts'
import { listed } from '#renderer/words/format.ts'
import type { ModelReading, Placement } from './preview-messages.ts'
import type { FaceLandmarks } from '#shared/try-on/face-landmarks.ts'
import { startPreview, type PreviewClient } from './preview-client.ts'
import {
  environmentOf,
  fieldOfViewOf,
  intensityOf,
  isWebAddress,
  modelSource,
  shadowOf,
  tilesOf,
  toneMappingOf,
  transformOf,
  type ModelSource,
} from './preview-settings.ts'

/** What the caption says about the model on screen. */
export interface ShownModel {
  /** One sentence: which model is shown and why. */
  text: string
  /** The address that failed, when the user may want to try it again. */
  retryUrl?: string
}

export interface ShownEnvironment {
  text: string
  retryUrl?: string
}

/** Addresses are typed a character at a time; wait for a pause before fetching one. */
const ADDRESS_SETTLE_MS = 500

const SAMPLE_MODEL: PreviewAssetRequest = { source: 'sample', name: 'model' }
const SAMPLE_ENVIRONMENT: PreviewAssetRequest = { source: 'sample', name: 'environment' }
/** Said of an environment image lit from a smaller copy of it (environment.ts, `prefilteredTarget`). */
const SOFTENED = ' Its reflections are less sharp here: this computer draws 3D without a graphics card.'

/** Which model is shown, and what it took: the decoders and glTF extensions it needed, the files beside it. */
function describeAsset(name: string, source: ModelSource, loaded: ModelReading): string {
  const what = `Showing ${name}${source.id ? ` (asset “${source.id}”)` : ''}, the SKU’s first 3D asset`
  const took = [
    ...(loaded.decoders.length ? [`decoded with ${listed(loaded.decoders)}`] : []),
    ...(loaded.extensions.length ? [`glTF extensions ${loaded.extensions.join(', ')}`] : []),
    ...(loaded.files ? [`${counted(loaded.files, 'file')} beside it`] : []),
  ]
  return `${what}${took.length ? ` (${took.join('; ')})` : ''}.`
}

/** The try-on's part (issue #39): the face the model is placed on, and whether it is shown. */
export interface TryOnScene {
  face(): FaceLandmarks | undefined
  modelVisible(): boolean
  onPlaced(placement: Placement | undefined): void
}

/**
 * The live preview of a SKU draft: starts the preview's worker on mount (which draws: see
 * preview-messages.ts), loads the model and environment through main (cached for the session) and
 * hands their bytes to it, sends every setting as it changes, and stops it all on unmount. Only
 * the words about the scene are reactive here.
 */
export function usePreviewScene(
  payload: () => Sku,
  canvas: Ref<HTMLCanvasElement | null>,
  tryOn?: TryOnScene,
) {
  const transform = computed(() => transformOf(payload()))
  const toneMapping = computed(() => toneMappingOf(payload()))
  const intensity = computed(() => intensityOf(payload()))
  const shadow = computed(() => shadowOf(payload()))
  const fieldOfView = computed(() => fieldOfViewOf(payload()))
  const environment = computed(() => environmentOf(payload()))
  const source = computed(() => modelSource(payload()))
  const tiles = computed(() => tilesOf(payload()))

  /** Set when there is no scene to show: WebGL is missing or was lost. */
  const unavailable = ref('')
  const loadingModel = ref(true)
  const loadingEnvironment = ref(true)
  const busy = computed(() => !unavailable.value && (loadingModel.value || loadingEnvironment.value))
  /** Frames drawn so far, and whether what was last asked for is on screen (the tests wait on it). */
  const frames = ref(0)
  const drawn = ref(false)
  const shownModel = ref<ShownModel>({ text: 'Loading the 3D model…' })
  const shownEnvironment = ref<ShownEnvironment>({ text: '' })
  /** The SKU's position or rotation puts the whole model outside the camera's view. */
  const outOfView = ref(false)
  const notes = computed(() => [
    ...transform.value.notes,
    ...(toneMapping.value.note ? [toneMapping.value.note] : []),
    ...intensity.value.notes,
    ...shadow.value.notes,
    ...(fieldOfView.value.note ? [fieldOfView.value.note] : []),
  ])

  let scene: PreviewClient | undefined
  /** Bumped on every load, so a slow answer for an address the user has left is dropped. */
  let modelLoad = 0
  let environmentLoad = 0

  async function showModel(from: ModelSource) {
    const load = ++modelLoad
    loadingModel.value = true
    let model = false
    let shown: ShownModel | undefined
    if (from.url && !isWebAddress(from.url)) {
      shown = {
        text: 'Showing the sample glasses: the SKU’s 3D asset address is not a web address (http or https).',
      }
    } else if (from.url) {
      let name = from.url
      try {
        const asset = await loadPreviewAsset({ source: 'url', url: from.url })
        name = asset.name
        if (load !== modelLoad || !scene) return
        const reading = await scene.showModel(asset.bytes, from.url)
        model = true
        shown = { text: describeAsset(asset.name, from, reading) }
      } catch (error) {
        const reason = failureText(error)
        // Download failures name the address already; a file that would not parse is named here.
        const why = reason.startsWith('Could not load') ? reason : `Could not show ${name}: ${reason}`
        shown = {
          text: `Showing the sample glasses: the SKU’s 3D asset could not be loaded — ${why}`,
          retryUrl: from.url,
        }
      }
    } else {
      shown = { text: 'Showing the sample glasses: this SKU has no 3D asset yet.' }
    }
    if (!model && load === modelLoad && scene) {
      try {
        await scene.showModel((await loadPreviewAsset(SAMPLE_MODEL)).bytes)
      } catch (error) {
        shown = {
          text: `No model to show: the sample glasses could not be loaded — ${failureText(error)}`,
        }
      }
    }
    if (load !== modelLoad || !scene) return
    shownModel.value = shown
    loadingModel.value = false
  }

  async function showEnvironment() {
    const load = ++environmentLoad
    const wanted = environment.value
    loadingEnvironment.value = true
    let lit = false
    let shown: ShownEnvironment
    if (wanted.source === 'image' && !isWebAddress(wanted.url)) {
      shown = { text: 'Lit by the default studio: the environment image address is not a web address.' }
    } else if (wanted.source === 'image') {
      try {
        const asset = await loadPreviewAsset({ source: 'url', url: wanted.url })
        if (load !== environmentLoad || !scene) return
        try {
          const { softened } = await scene.showEnvironment(asset.bytes)
          lit = true
          shown = { text: `Lit by ${asset.name}, the SKU’s environment image.${softened ? SOFTENED : ''}` }
        } catch (error) {
          throw new Error(`Could not show ${asset.name}: ${failureText(error)}`, { cause: error })
        }
      } catch (error) {
        shown = {
          text: `Lit by the default studio: the environment image could not be loaded — ${failureText(error)}`,
          retryUrl: wanted.url,
        }
      }
    } else {
      shown = { text: `Lit by the default studio: ${wanted.reason}.` }
    }
    if (!lit && load === environmentLoad && scene) {
      try {
        await scene.showEnvironment((await loadPreviewAsset(SAMPLE_ENVIRONMENT)).bytes)
      } catch (error) {
        shown = { text: `Unlit: the default studio could not be loaded — ${failureText(error)}` }
      }
    }
    if (load !== environmentLoad || !scene) return
    shownEnvironment.value = shown
    loadingEnvironment.value = false
  }

  /**
   * Runs `action` at once, or once typing has paused when the new value is an address being typed
   * (each keystroke would otherwise fetch a partial address).
   */
  function debounced(action: () => void) {
    let timer: ReturnType<typeof setTimeout> | undefined
    onBeforeUnmount(() => clearTimeout(timer))
    return (typing: boolean) => {
      clearTimeout(timer)
      if (typing) timer = setTimeout(action, ADDRESS_SETTLE_MS)
      else action()
    }
  }
  const updateModel = debounced(() => void showModel(source.value))
  const updateEnvironment = debounced(() => void showEnvironment())

  function applySettings(target: PreviewClient) {
    target.setTransform(transform.value.position, transform.value.rotation)
    target.setToneMapping(toneMapping.value.mapping)
    target.setIntensity(intensity.value.value)
    target.setShadow(shadow.value)
    target.setFieldOfView(fieldOfView.value.degrees)
  }

  /** Stops the worker and says why there is no preview. */
  function stopWith(reason: string) {
    unavailable.value = reason
    scene?.stop()
    scene = undefined
  }

  onMounted(() => {
    if (!canvas.value) return
    try {
      scene = startPreview(canvas.value, {
        onProgress(progress) {
          frames.value = progress.frames
          drawn.value = progress.settled
          if (progress.modelInView !== undefined) outOfView.value = !progress.modelInView
        },
        onUnavailable: (reason, noWebGL) =>
          stopWith(
            noWebGL
              ? 'The 3D preview needs WebGL, which is not available here.'
              : `The 3D preview could not start: ${reason}`,
          ),
        onContextLost: () =>
          stopWith(
            'The 3D preview stopped: the graphics processor reset. Reopen the draft to start it again.',
          ),
        onPlaced: (placement) => tryOn?.onPlaced(placement),
      })
    } catch (error) {
      unavailable.value = `The 3D preview could not start: ${failureText(error)}`
      return
    }
    applySettings(scene)
    if (tryOn) {
      scene.setModelVisible(tryOn.modelVisible())
      scene.showFace(tryOn.face())
    }
    void showModel(source.value)
    void showEnvironment()
  })

  onBeforeUnmount(() => {
    modelLoad += 1
    environmentLoad += 1
    scene?.stop()
    scene = undefined
  })

  // Each setting on its own: editing one field touches one thing in the scene, and fields the
  // preview does not read (brand, barcode…) touch nothing.
  watch(transform, (value) => scene?.setTransform(value.position, value.rotation))
  watch(toneMapping, (value) => scene?.setToneMapping(value.mapping))
  watch(intensity, (value) => scene?.setIntensity(value.value))
  watch(shadow, (value) => scene?.setShadow(value))
  watch(fieldOfView, (value) => scene?.setFieldOfView(value.degrees))
  if (tryOn) {
    watch(tryOn.face, (face) => scene?.showFace(face))
    watch(tryOn.modelVisible, (visible) => scene?.setModelVisible(visible))
  }
  watch(
    () => source.value.url,
    (url) => {
      if (!scene) return
      loadingModel.value = true
      updateModel(url !== undefined)
    },
  )
  watch(
    () => (environment.value.source === 'image' ? environment.value.url : undefined),
    (url) => {
      if (!scene) return
      loadingEnvironment.value = true
      updateEnvironment(url !== undefined)
    },
  )
  // The reason for the default environment is part of the caption even when the lighting is the same.
  watch(
    () => (environment.value.source === 'default' ? environment.value.reason : ''),
    (reason) => {
      if (reason && !loadingEnvironment.value)
        shownEnvironment.value = { text: `Lit by the default studio: ${reason}.` }
    },
  )

  function retry(url: string) {
    forgetPreviewAsset({ source: 'url', url })
    if (url === source.value.url) void showModel(source.value)
    if (environment.value.source === 'image' && url === environment.value.url) void showEnvironment()
  }

  return {
    unavailable,
    busy,
    frames,
    drawn,
    shownModel,
    shownEnvironment,
    outOfView,
    notes,
    settings: { transform, toneMapping, intensity, shadow, fieldOfView, environment, source, tiles },
    resetView: () => scene?.resetView(),
    orbit: (left: number, up: number) => scene?.orbit(left, up),
    zoom: (factor: number) => scene?.zoom(factor),
    frameModel: () => scene?.frameModel(),
    retry,
  }
}
