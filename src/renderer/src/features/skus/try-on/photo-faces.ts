import { readFacePhoto } from '#renderer/adapters/face-photos.ts'
import type { FacePhoto } from '#shared/try-on/face-photo.ts'
import type { PictureFace } from './face-source.ts'

/** The person's own photos as faces: read back from main, decoded in the page. */

/** A thumbnail's height in pixels: twice what the picker shows, for sharp screens. */
const THUMBNAIL_HEIGHT = 128

async function blobOf(photo: FacePhoto): Promise<Blob> {
  const { bytes } = await readFacePhoto(photo.id)
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: photo.type })
}

/** Decodes a photo for the try-on; an undecodable file (a damaged JPEG) is an error naming it. */
export async function decodePhotoFace(photo: FacePhoto): Promise<PictureFace> {
  const blob = await blobOf(photo)
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(blob)
  } catch {
    throw new Error(
      `"${photo.name}" could not be read as a picture: the file may be damaged. Delete it and add it again.`,
    )
  }
  return { kind: 'picture', id: `photo:${photo.id}`, name: photo.name, bitmap }
}

/**
 * A small copy of a photo for the picker, as an object URL (the caller revokes it): the list never
 * holds the full-size files.
 */
export async function photoThumbnail(photo: FacePhoto): Promise<string> {
  const bitmap = await createImageBitmap(await blobOf(photo), {
    resizeHeight: THUMBNAIL_HEIGHT,
    resizeQuality: 'medium',
  })
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0)
    return URL.createObjectURL(await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 }))
  } finally {
    bitmap.close()
  }
}
