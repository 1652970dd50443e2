import { EventDispatcher } from 'three'
import type { ForwardedInput, SurfaceSize } from './preview-messages.ts'

/**
 * What three's OrbitControls take for the canvas element, in the worker, which has no DOM: the
 * page forwards the canvas's pointer and wheel events (preview-client.ts) and they are dispatched
 * here as the element's own. The controls listen for moves on the element's document too: this
 * stands in for both. Pointer capture is the page's (it holds the real element), so the calls the
 * controls make for it do nothing here; the cursor is the page's stylesheet's.
 */
export class ControlSurface extends EventDispatcher<Record<string, object>> {
  clientWidth: number
  clientHeight: number
  pixelRatio: number
  private rect = { left: 0, top: 0, width: 0, height: 0 }
  readonly style: Record<string, string> = {}

  constructor(size: SurfaceSize) {
    super()
    this.clientWidth = size.width
    this.clientHeight = size.height
    this.pixelRatio = size.pixelRatio
  }

  get ownerDocument(): this {
    return this
  }

  resize(size: SurfaceSize): void {
    this.clientWidth = size.width
    this.clientHeight = size.height
    this.pixelRatio = size.pixelRatio
  }

  /** Dispatches a forwarded event to the controls as if it happened here. */
  dispatchInput(input: ForwardedInput): void {
    this.rect = input.rect
    // The page already kept the browser from acting on the real event (scrolling for the wheel).
    const event = { ...input, preventDefault() {} }
    this.dispatchEvent(event as typeof event & { type: string })
  }

  getBoundingClientRect() {
    const { left, top, width, height } = this.rect
    return { left, top, width, height, right: left + width, bottom: top + height, x: left, y: top }
  }

  setPointerCapture(): void {}
  releasePointerCapture(): void {}
  hasPointerCapture(): boolean {
    return false
  }
  focus(): void {}
}
