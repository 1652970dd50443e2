import {
  Color,
  Group,
  Mesh,
  MeshBasicMaterial,
  OrthographicCamera,
  PlaneGeometry,
  ShaderMaterial,
  WebGLRenderTarget,
  type Scene,
  type WebGLRenderer,
} from 'three'
import { HorizontalBlurShader } from 'three/addons/shaders/HorizontalBlurShader.js'
import { VerticalBlurShader } from 'three/addons/shaders/VerticalBlurShader.js'

/**
 * A soft shadow on the ground under the model, the way model-viewer draws its shadow: the model
 * is seen from below by an orthographic camera, each surface darker the closer it is to the
 * ground, then blurred. Softness sets the blur, intensity the shadow's opacity. It is rendered
 * again only when the model, its transform or the softness changes, not on every frame.
 */

const RESOLUTION = 512

/** Black, and more opaque the nearer to the ground (the camera's near plane). */
const depthToShadow = new ShaderMaterial({
  vertexShader: /* glsl */ `
    void main() {
      gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
    }`,
  fragmentShader: /* glsl */ `
    void main() {
      gl_FragColor = vec4(vec3(0.0), 1.0 - gl_FragCoord.z);
    }`,
})

export class ContactShadow {
  /** Add to the scene; placed at the ground under the model by `fit`. */
  readonly group = new Group()
  private readonly target = new WebGLRenderTarget(RESOLUTION, RESOLUTION)
  private readonly blurTarget = new WebGLRenderTarget(RESOLUTION, RESOLUTION)
  private readonly plane: Mesh<PlaneGeometry, MeshBasicMaterial>
  private readonly blurPlane: Mesh<PlaneGeometry, ShaderMaterial>
  private readonly camera = new OrthographicCamera(-0.5, 0.5, 0.5, -0.5, 0, 1)
  private readonly depthMaterial = depthToShadow.clone()
  private readonly horizontalBlur = new ShaderMaterial(HorizontalBlurShader)
  private readonly verticalBlur = new ShaderMaterial(VerticalBlurShader)
  private softness = 1
  private dirty = true

  constructor() {
    this.target.texture.generateMipmaps = false
    this.blurTarget.texture.generateMipmaps = false
    // Facing down, then mirrored: the texture comes out of a camera that looks up, and the mirror
    // also turns the plane's front face upward (the example this follows does the same).
    const geometry = new PlaneGeometry(1, 1).rotateX(Math.PI / 2)
    this.plane = new Mesh(
      geometry,
      new MeshBasicMaterial({ map: this.target.texture, transparent: true, depthWrite: false, opacity: 0 }),
    )
    this.plane.scale.y = -1
    // First of the transparent objects: the ground is behind everything, lenses included.
    this.plane.renderOrder = -1
    this.plane.visible = false
    // Fills the camera's view exactly, so each blur pass maps the texture onto itself.
    this.blurPlane = new Mesh(geometry, this.horizontalBlur)
    this.blurPlane.visible = false
    this.horizontalBlur.depthTest = false
    this.verticalBlur.depthTest = false
    // Looking up from the ground.
    this.camera.rotation.x = Math.PI / 2
    this.group.add(this.plane, this.blurPlane, this.camera)
  }

  /** Places a square of `size` on the ground at (x, groundY, z), catching what is up to `height` above. */
  fit(x: number, groundY: number, z: number, size: number, height: number): void {
    this.group.position.set(x, groundY, z)
    this.plane.scale.set(size, -1, size)
    this.blurPlane.scale.set(size, 1, size)
    Object.assign(this.camera, { left: -size / 2, right: size / 2, top: size / 2, bottom: -size / 2 })
    this.camera.far = height
    this.camera.updateProjectionMatrix()
    this.dirty = true
  }

  /** 0 hides the shadow (and skips its rendering); 1 is fully dark under the model. */
  setIntensity(intensity: number): void {
    this.plane.material.opacity = intensity
    if (intensity > 0 && !this.plane.visible) this.dirty = true
    this.plane.visible = intensity > 0
  }

  setSoftness(softness: number): void {
    if (softness === this.softness) return
    this.softness = softness
    this.dirty = true
  }

  /** The model moved or changed: draw the shadow again before the next frame. */
  invalidate(): void {
    this.dirty = true
  }

  /** Draws the shadow texture when something changed; call before rendering the scene. */
  update(renderer: WebGLRenderer, scene: Scene): void {
    if (!this.dirty || !this.plane.visible) return
    this.dirty = false
    const background = scene.background
    const clearColor = renderer.getClearColor(new Color())
    const clearAlpha = renderer.getClearAlpha()
    scene.background = null
    this.plane.visible = false
    scene.overrideMaterial = this.depthMaterial
    renderer.setClearColor(0x000000, 0)
    renderer.setRenderTarget(this.target)
    renderer.clear()
    renderer.render(scene, this.camera)
    scene.overrideMaterial = null
    // Two passes, the second finer, as a cheap approximation of a wider Gaussian.
    const blur = 0.4 + this.softness * 4
    this.blur(renderer, blur)
    this.blur(renderer, blur * 0.4)
    renderer.setRenderTarget(null)
    renderer.setClearColor(clearColor, clearAlpha)
    scene.background = background
    this.plane.visible = true
  }

  private blur(renderer: WebGLRenderer, amount: number): void {
    this.blurPlane.visible = true
    this.blurPlane.material = this.horizontalBlur
    this.horizontalBlur.uniforms.tDiffuse!.value = this.target.texture
    this.horizontalBlur.uniforms.h!.value = amount / 256
    renderer.setRenderTarget(this.blurTarget)
    renderer.render(this.blurPlane, this.camera)
    this.blurPlane.material = this.verticalBlur
    this.verticalBlur.uniforms.tDiffuse!.value = this.blurTarget.texture
    this.verticalBlur.uniforms.v!.value = amount / 256
    renderer.setRenderTarget(this.target)
    renderer.render(this.blurPlane, this.camera)
    this.blurPlane.visible = false
  }

  dispose(): void {
    this.target.dispose()
    this.blurTarget.dispose()
    this.plane.geometry.dispose()
    this.plane.material.dispose()
    this.depthMaterial.dispose()
    this.horizontalBlur.dispose()
    this.verticalBlur.dispose()
  }
}
