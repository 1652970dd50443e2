import {
  Box3,
  Frustum,
  Group,
  Matrix4,
  MathUtils,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  Scene,
  Sphere,
  SphereGeometry,
  Spherical,
  Texture,
  Vector3,
  WebGLRenderer,
  type Material,
  type Object3D,
  type ToneMapping,
} from 'three'
import { OrbitControls } from 'three/addons/controls/OrbitControls.js'
import { ContactShadow } from './contact-shadow.ts'
import type { ControlSurface } from './control-surface.ts'
import { DEFAULT_FIELD_OF_VIEW } from './field-of-view.ts'
import { disposeTexture, EnvironmentLighting } from './environment.ts'
import type { ShadowSettings, Vector3Like } from './preview-settings.ts'
import type { ModelBounds, TryOnFit } from '#shared/try-on/fit.ts'

/**
 * The preview's three.js scene: one renderer, one model, a studio environment and a ground
 * shadow. Settings are applied to the live objects (nothing is rebuilt when a value changes) and
 * a frame is drawn only when something changed or while the user orbits.
 *
 * It runs in the preview's worker (preview-worker.ts), drawing on the canvas the page handed over
 * (an OffscreenCanvas); the surface stands in for the canvas element: its size, and the pointer
 * events the page forwards to the orbit controls.
 */

export interface PreviewScene {
  /** Shows a model in place of the previous one (which is disposed) and frames the view on it. */
  setModel(model: Object3D): void
  /** Position in scene units (metres); rotation in degrees, applied in X, Y, Z order. */
  setTransform(position: Vector3Like, rotationDegrees: Vector3Like): void
  setToneMapping(mapping: ToneMapping): void
  /** Brightness of the environment lighting; 1 is the environment as it is. */
  setIntensity(intensity: number): void
  setShadow(shadow: ShadowSettings): void
  /**
   * Lights the scene with an equirectangular texture; takes it over (and disposes it). True when
   * its reflections are softened (WebGL drawn in software: environment.ts).
   */
  setEnvironment(equirectangular: Texture): boolean
  setFieldOfView(degrees: number): void
  /** Back to the framing the model was first shown with. */
  resetView(): void
  /** Turns the view around the model, in degrees: left/right, then up/down. */
  orbit(leftDegrees: number, upDegrees: number): void
  /** Moves the camera closer (factor > 1) or further away (factor < 1). */
  zoom(factor: number): void
  /** Frames the model where the SKU's transform puts it, when that is out of view. */
  frameTransformed(): void
  /** Fits the drawing to the surface's size, after it changed. */
  resize(): void
  /** Whether a frame has been asked for and not drawn yet. */
  drawing(): boolean
  /** Draws a frame now, in this task (a still: its pixels are read right after), rather than on the next animation frame. */
  drawNow(): void
  /**
   * The try-on (issue #39): the camera matched to a picture, the model placed on its face and a
   * head-shaped occluder behind it, the ground shadow off; the SKU's transform is in the fit.
   * Undefined goes back to the studio.
   */
  placeOnFace(fit: TryOnFit | undefined): void
  /** Shows or hides the model (the try-on compares the face with and without it). */
  setModelVisible(visible: boolean): void
  /** The model's box in its own units, once there is a model. */
  modelBounds(): ModelBounds | undefined
  dispose(): void
}

export interface PreviewSceneOptions {
  /**
   * Called after each frame with the number of frames drawn so far and, once there is a model,
   * whether any of it is in the view (a position may put it out of sight).
   */
  onRender?(frames: number, modelInView: boolean | undefined): void
  /** The GPU took the context away (a driver reset, too many contexts): nothing more will draw. */
  onContextLost?(): void
}

/** Raised when the browser has no WebGL 2 (headless browsers without a GPU, locked-down machines). */
export class WebGLUnavailableError extends Error {
  constructor(detail?: string) {
    super(`The 3D preview needs WebGL, which is not available here${detail ? ` (${detail})` : ''}.`)
    this.name = 'WebGLUnavailableError'
  }
}

/** A three-quarter view from the front right and a little above: how product shots show glasses. */
const DEFAULT_AZIMUTH = MathUtils.degToRad(28)
const DEFAULT_ELEVATION = MathUtils.degToRad(14)
/** Vertices per mesh looked at when framing the model. */
const MAX_FRAMING_POINTS = 20_000
/** Room around the model, so it is never cut off at the edges. */
const FRAMING_MARGIN = 1.08

function disposeMaterial(material: Material): void {
  for (const value of Object.values(material)) {
    if (value instanceof Texture) disposeTexture(value)
  }
  material.dispose()
}

/** Frees a model's geometry, materials and textures. */
export function disposeObject(root: Object3D): void {
  root.traverse((object) => {
    if (!(object instanceof Mesh)) return
    object.geometry.dispose()
    const materials: Material[] = Array.isArray(object.material) ? object.material : [object.material]
    materials.forEach(disposeMaterial)
  })
}

function createRenderer(canvas: OffscreenCanvas): WebGLRenderer {
  // Asked for here, not by three.js, so a missing WebGL is an answer rather than a logged error.
  let context: WebGL2RenderingContext | null
  try {
    context = canvas.getContext('webgl2', { alpha: true, antialias: true, premultipliedAlpha: true })
  } catch (error) {
    throw new WebGLUnavailableError(error instanceof Error ? error.message : undefined)
  }
  if (!context) throw new WebGLUnavailableError()
  try {
    return new WebGLRenderer({ canvas, context, antialias: true, alpha: true })
  } catch (error) {
    throw new WebGLUnavailableError(error instanceof Error ? error.message : undefined)
  }
}

export function createPreviewScene(
  canvas: OffscreenCanvas,
  surface: ControlSurface,
  options: PreviewSceneOptions = {},
): PreviewScene {
  const renderer = createRenderer(canvas)
  // Transparent: the page's studio backdrop shows through, so the canvas never reads as a box.
  renderer.setClearColor(0x000000, 0)
  renderer.toneMappingExposure = 1

  const scene = new Scene()
  const camera = new PerspectiveCamera(DEFAULT_FIELD_OF_VIEW, 1, 0.01, 100)
  const controls = new OrbitControls(camera, surface as unknown as HTMLElement)
  // Panning could lose the model off screen; orbit and zoom are what a product view needs.
  controls.enablePan = false
  controls.enableDamping = false
  // Down to a little below the horizon: the shadow is drawn on the ground, seen from above.
  controls.maxPolarAngle = MathUtils.degToRad(100)

  const lighting = new EnvironmentLighting(renderer)

  const shadow = new ContactShadow()
  scene.add(shadow.group)

  /** Carries the SKU's transform; the model inside keeps its own. */
  const anchor = new Group()
  scene.add(anchor)
  let model: Object3D | undefined
  /** The model's box as loaded, before any transform. */
  let bounds: ModelBounds | undefined

  /** The try-on's fit, while the scene shows a face; undefined in the studio. */
  let onFace: TryOnFit | undefined
  let studioFieldOfView = DEFAULT_FIELD_OF_VIEW
  /**
   * The head standing in for the face in the picture: an ellipsoid that writes depth and no
   * colour, drawn before the model, so whatever of the frame is behind it (the temples) is not
   * drawn and the picture shows through.
   */
  const head = new Group()
  const occluder = new Mesh(
    new SphereGeometry(1, 48, 32),
    new MeshBasicMaterial({ colorWrite: false, depthWrite: true }),
  )
  occluder.renderOrder = -1
  head.add(occluder)
  head.visible = false
  scene.add(head)
  /** The framing of the current model: where the camera looks and from how far. */
  const home = { target: new Vector3(), distance: 1 }
  /** The model's vertices, kept to frame it again when the view changes shape. */
  let modelPoints: Vector3[] = []
  /** True until the user turns or zooms: a resize then reframes the model for the new shape. */
  let atHome = true

  let frame = 0
  let frames = 0
  let disposed = false
  const draw = () => {
    frame = 0
    if (disposed) return
    shadow.update(renderer, scene)
    renderer.render(scene, camera)
    frames += 1
    options.onRender?.(frames, model ? modelInView() : undefined)
  }
  const requestRender = () => {
    if (!frame && !disposed) frame = requestAnimationFrame(draw)
  }
  // Orbiting with the mouse draws a frame per pointer move, and nothing when the pointer rests.
  controls.addEventListener('change', requestRender)

  const resize = () => {
    const width = surface.clientWidth
    const height = surface.clientHeight
    if (!width || !height) return
    renderer.setPixelRatio(Math.min(surface.pixelRatio || 1, 2))
    renderer.setSize(width, height, false)
    camera.aspect = width / height
    camera.updateProjectionMatrix()
    if (!onFace && atHome && modelPoints.length) {
      fitHome(modelPoints)
      resetView()
    }
    requestRender()
  }
  // Sized now, so the first model is framed for the real aspect ratio; then on every layout change.
  resize()

  const onContextLost = (event: Event) => {
    event.preventDefault()
    options.onContextLost?.()
  }
  canvas.addEventListener('webglcontextlost', onContextLost)

  function resetView() {
    // On a face the camera is the picture's; there is no view to reset.
    if (onFace) return requestRender()
    atHome = true
    controls.target.copy(home.target)
    camera.position.copy(home.target).addScaledVector(homeDirection(), home.distance)
    controls.update()
    requestRender()
  }

  /** The default viewing direction, from the target toward the camera. */
  function homeDirection() {
    return new Vector3().setFromSpherical(new Spherical(1, Math.PI / 2 - DEFAULT_ELEVATION, DEFAULT_AZIMUTH))
  }

  /**
   * Frames the model as it is without the SKU's transform, seen from the default direction: its
   * outline is centred in the view and fills it up to the margin, whatever its shape (a bounding
   * sphere would leave glasses, long and thin, small and off-centre).
   */
  function fitHome(points: Vector3[]) {
    const direction = homeDirection()
    const right = new Vector3().crossVectors(camera.up, direction).normalize()
    const up = new Vector3().crossVectors(direction, right)
    const range = (axis: Vector3) => {
      let min = Infinity
      let max = -Infinity
      for (const point of points) {
        const value = point.dot(axis)
        if (value < min) min = value
        if (value > max) max = value
      }
      return { min, max, mid: (min + max) / 2, half: Math.max((max - min) / 2, 1e-4) }
    }
    const across = range(right)
    const upward = range(up)
    const depth = range(direction)
    home.target
      .copy(right)
      .multiplyScalar(across.mid)
      .addScaledVector(up, upward.mid)
      .addScaledVector(direction, depth.mid)
    // Framed for the default field of view: a SKU's own field of view then zooms as a lens would.
    const tanVertical = Math.tan(MathUtils.degToRad(DEFAULT_FIELD_OF_VIEW / 2))
    const tanHorizontal = tanVertical * camera.aspect
    // The near half of the model is closer than the target, so it looks larger: add it.
    home.distance =
      Math.max(across.half / tanHorizontal, upward.half / tanVertical) * FRAMING_MARGIN + depth.half
  }

  /** The model's vertices in its own (untransformed) space, for framing. */
  function pointsOf(object: Object3D): Vector3[] {
    object.updateMatrixWorld(true)
    const points: Vector3[] = []
    object.traverse((child) => {
      if (!(child instanceof Mesh)) return
      const position = child.geometry.getAttribute('position')
      if (!position) return
      // A sample is enough to frame by; a scanned model may have millions of vertices.
      const stride = Math.max(1, Math.ceil(position.count / MAX_FRAMING_POINTS))
      for (let i = 0; i < position.count; i += stride) {
        points.push(new Vector3().fromBufferAttribute(position, i).applyMatrix4(child.matrixWorld))
      }
    })
    return points
  }

  controls.addEventListener('start', () => (atHome = false))

  /** Whether the model's box, transformed as the SKU says, meets what the camera sees. */
  function modelInView(): boolean {
    const box = new Box3().setFromObject(anchor)
    if (box.isEmpty()) return true
    camera.updateMatrixWorld()
    const seen = new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
    return new Frustum().setFromProjectionMatrix(seen).intersectsBox(box)
  }

  /** Sizes the camera's range and the shadow to the model, and frames it. */
  function frameModel(object: Object3D) {
    const box = new Box3().setFromObject(object)
    if (box.isEmpty()) box.set(new Vector3(-0.05, -0.05, -0.05), new Vector3(0.05, 0.05, 0.05))
    bounds = { min: box.min.toArray(), max: box.max.toArray() }
    const sphere = box.getBoundingSphere(new Sphere())
    const radius = Math.max(sphere.radius, 0.001)
    if (!onFace) {
      camera.near = radius / 100
      camera.far = radius * 100
      camera.updateProjectionMatrix()
    }
    controls.minDistance = radius * 0.6
    controls.maxDistance = radius * 8
    const size = box.getSize(new Vector3())
    // Room for the shadow to follow the model when the SKU's position moves it.
    shadow.fit(sphere.center.x, box.min.y - radius * 0.002, sphere.center.z, radius * 4, size.y + radius)
    modelPoints = pointsOf(object)
    if (!modelPoints.length) modelPoints = [box.min, box.max]
    fitHome(modelPoints)
  }

  return {
    setModel(next) {
      if (model) {
        anchor.remove(model)
        disposeObject(model)
      }
      model = next
      frameModel(next)
      anchor.add(next)
      resetView()
    },
    setTransform(position, rotation) {
      // On a face the fit carries the transform (placeOnFace).
      if (onFace) return
      anchor.position.set(position.x, position.y, position.z)
      anchor.rotation.set(
        MathUtils.degToRad(rotation.x),
        MathUtils.degToRad(rotation.y),
        MathUtils.degToRad(rotation.z),
        'XYZ',
      )
      shadow.invalidate()
      requestRender()
    },
    setToneMapping(mapping) {
      renderer.toneMapping = mapping
      requestRender()
    },
    setIntensity(intensity) {
      scene.environmentIntensity = intensity
      requestRender()
    },
    setShadow({ intensity, softness }) {
      shadow.setIntensity(intensity)
      shadow.setSoftness(softness)
      requestRender()
    },
    setEnvironment(equirectangular) {
      const softened = lighting.set(equirectangular)
      scene.environment = lighting.texture()
      requestRender()
      return softened
    },
    setFieldOfView(degrees) {
      // On a face the lens is the picture's (fit.ts), kept when the studio is left and come back to.
      studioFieldOfView = degrees
      if (onFace) return
      camera.fov = degrees
      camera.updateProjectionMatrix()
      requestRender()
    },
    resetView,
    orbit(left, up) {
      if (onFace) return
      atHome = false
      controls.rotateLeft(MathUtils.degToRad(left))
      controls.rotateUp(MathUtils.degToRad(up))
      controls.update()
    },
    zoom(factor) {
      if (onFace) return
      atHome = false
      if (factor > 1) controls.dollyIn(factor)
      else controls.dollyOut(1 / factor)
      controls.update()
    },
    frameTransformed() {
      if (!model || onFace) return
      // The framing becomes the model where it is; Reset view comes back to this one.
      anchor.updateMatrixWorld(true)
      const points = pointsOf(model)
      if (!points.length) return
      modelPoints = points
      fitHome(points)
      // The camera's range was sized for the model at the origin; it may now be far from it.
      const reach = home.distance * 2
      if (camera.far < reach) {
        camera.far = reach
        camera.updateProjectionMatrix()
      }
      controls.maxDistance = Math.max(controls.maxDistance, home.distance * 1.5)
      resetView()
    },
    resize,
    drawing: () => frame !== 0,
    drawNow() {
      cancelAnimationFrame(frame)
      draw()
    },
    placeOnFace(fit) {
      const leaving = onFace && !fit
      onFace = fit
      controls.enabled = !fit
      shadow.group.visible = !fit
      head.visible = !!fit
      if (!fit) {
        if (leaving) {
          camera.fov = studioFieldOfView
          if (model) frameModel(model)
          resetView()
        }
        return requestRender()
      }
      // The picture's camera: at the origin, looking down -Z (see fit.ts).
      camera.position.set(0, 0, 0)
      camera.quaternion.identity()
      camera.fov = fit.camera.verticalFovDegrees
      camera.near = fit.camera.near
      camera.far = fit.camera.far
      camera.updateProjectionMatrix()
      head.position.fromArray(fit.anchor.position)
      head.quaternion.fromArray(fit.anchor.quaternion)
      occluder.position.fromArray(fit.occluder.centre)
      occluder.scale.fromArray(fit.occluder.radii)
      anchor.position.fromArray(fit.model.position)
      anchor.quaternion.fromArray(fit.model.quaternion)
      anchor.scale.setScalar(fit.model.scale)
      requestRender()
    },
    setModelVisible(visible) {
      anchor.visible = visible
      requestRender()
    },
    modelBounds: () => bounds,
    dispose() {
      disposed = true
      cancelAnimationFrame(frame)
      controls.dispose()
      if (model) disposeObject(model)
      shadow.dispose()
      occluder.geometry.dispose()
      occluder.material.dispose()
      lighting.dispose()
      canvas.removeEventListener('webglcontextlost', onContextLost)
      renderer.dispose()
      // Browsers allow a handful of live WebGL contexts; give this one back now, not at GC.
      renderer.forceContextLoss()
    },
  }
}
