import type { HandlerDeps, Handlers } from './types.ts'

type TryOnHandlers = Pick<
  Handlers,
  'addFacePhoto' | 'listFacePhotos' | 'readFacePhoto' | 'deleteFacePhoto' | 'allowCameraOnce'
>

/** The try-on's faces: the person's own photos (src/node/face-photos.ts) and the camera's one-click grant. */
export function createTryOnHandlers(deps: Pick<HandlerDeps, 'facePhotos' | 'camera'>): TryOnHandlers {
  return {
    addFacePhoto: (name, bytes) => deps.facePhotos.add(name, bytes),
    listFacePhotos: () => deps.facePhotos.list(),
    readFacePhoto: (id) => deps.facePhotos.read(id),
    deleteFacePhoto: (id) => deps.facePhotos.remove(id),
    allowCameraOnce: async () => deps.camera.allowOnce(),
  }
}
