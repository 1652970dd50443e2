import { onScopeDispose, shallowRef, type Ref } from 'vue'
import { allowCameraOnce } from '#renderer/adapters/face-photos.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * Where the try-on's camera stands. It is off until the person turns it on; what went wrong is
 * said plainly, first words first ("Camera denied.", "No camera.").
 */
export type CameraState =
  | { status: 'off' }
  | { status: 'starting' }
  | { status: 'on'; video: HTMLVideoElement }
  | { status: 'denied' | 'no-camera' | 'failed'; message: string }

const DENIED =
  'Camera denied. Catalog Desk was not allowed to use the camera: allow it in the system’s privacy settings (on a Mac, System Settings › Privacy & Security › Camera), then turn it on again.'
const NO_CAMERA =
  'No camera. This computer has no camera Catalog Desk can use: connect one, or try the face on a photo.'
const LOST = 'The camera stopped (it was disconnected or taken by another app). Turn it on again to go on.'

/** What a failed getUserMedia means to the person. */
function stateOf(error: unknown): CameraState {
  const name = error instanceof DOMException ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return { status: 'denied', message: DENIED }
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return { status: 'no-camera', message: NO_CAMERA }
  if (name === 'NotReadableError' || name === 'AbortError')
    return {
      status: 'failed',
      message:
        'The camera is in use by another app or could not start. Close the other app, then turn it on again.',
    }
  return { status: 'failed', message: `The camera could not start: ${messageOf(error)}` }
}

/**
 * The live camera for the try-on, shown in `video` (an element of the caller's template). Nothing
 * touches the camera until `start`, which the person's click calls: it tells main (which grants
 * the next camera request only after that call), then asks for video alone. `stop`, and leaving
 * the page (the scope's end), stop every track, so the camera's light goes out.
 */
export function useCamera(video: Readonly<Ref<HTMLVideoElement | null | undefined>>) {
  const state = shallowRef<CameraState>({ status: 'off' })
  let stream: MediaStream | undefined
  /** Bumped by each start and stop, so a slow start that was stopped meanwhile lets go at once. */
  let attempt = 0

  function release() {
    for (const track of stream?.getTracks() ?? []) track.stop()
    stream = undefined
    const element = video.value
    if (element) {
      element.pause()
      element.srcObject = null
    }
  }

  async function hasCamera(): Promise<boolean> {
    if (!navigator.mediaDevices?.getUserMedia) return false
    // Before a grant the devices come without names, but with their kinds.
    const devices = await navigator.mediaDevices.enumerateDevices()
    return devices.some((device) => device.kind === 'videoinput')
  }

  async function start(): Promise<void> {
    const mine = ++attempt
    release()
    state.value = { status: 'starting' }
    try {
      if (!(await hasCamera())) {
        if (mine === attempt) state.value = { status: 'no-camera', message: NO_CAMERA }
        return
      }
      await allowCameraOnce()
      if (mine !== attempt) return
      const media = await navigator.mediaDevices.getUserMedia({ video: true, audio: false })
      if (mine !== attempt) {
        for (const track of media.getTracks()) track.stop()
        return
      }
      stream = media
      for (const track of media.getVideoTracks()) {
        track.addEventListener('ended', () => {
          if (stream !== media) return
          attempt++
          release()
          state.value = { status: 'failed', message: LOST }
        })
      }
      const element = video.value
      if (!element) throw new Error('the camera view is not on the page')
      element.muted = true
      element.playsInline = true
      element.srcObject = media
      await element.play()
      if (mine === attempt) state.value = { status: 'on', video: element }
    } catch (error) {
      if (mine !== attempt) return
      release()
      state.value = stateOf(error)
    }
  }

  function stop(): void {
    attempt++
    release()
    state.value = { status: 'off' }
  }

  onScopeDispose(stop)

  return { state, start, stop }
}
