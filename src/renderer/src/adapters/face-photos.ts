import type { FacePhoto, FacePhotoFile } from '#shared/try-on/face-photo.ts'

/**
 * The try-on's own face photos, kept by main in the app's data folder (src/node/face-photos.ts):
 * the page never writes them anywhere itself.
 */

/** Keeps a picked file; refused, naming it, unless it is a JPEG, PNG or WebP picture within the limit. */
export function addFacePhoto(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<FacePhoto> {
  return window.api.addFacePhoto(name, bytes)
}

export function listFacePhotos(): Promise<FacePhoto[]> {
  return window.api.listFacePhotos()
}

export function readFacePhoto(id: string): Promise<FacePhotoFile> {
  return window.api.readFacePhoto(id)
}

export function deleteFacePhoto(id: string): Promise<void> {
  return window.api.deleteFacePhoto(id)
}

/** The person clicked "Turn camera on": main lets the page's next camera request through, once. */
export function allowCameraOnce(): Promise<void> {
  return window.api.allowCameraOnce()
}
