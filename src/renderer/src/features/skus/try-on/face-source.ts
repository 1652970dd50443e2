/**
 * What the face picker hands the try-on view (issue #39): the face a frame is tried on. Either a
 * still picture (a sample portrait shipped with the app, or a photo the user added) or the live
 * camera. The picker owns both: it closes a picture's bitmap when another face is chosen, and
 * stops the camera when it is turned off or the picker leaves the page; the view only reads them.
 */

/** The hand-marked points of a sample portrait, in the picture's pixels (the subject's right/left). */
export interface FaceMarks {
  rightPupil: readonly [x: number, y: number]
  leftPupil: readonly [x: number, y: number]
  noseBridge: readonly [x: number, y: number]
}

/** A still face: decoded once, at its own size (bitmap.width × bitmap.height pixels). */
export interface PictureFace {
  kind: 'picture'
  /** Stable across runs: `sample:<faces.json id>` for a sample, `photo:<store id>` for a user's photo. */
  id: string
  /** What the user reads: a sample's label, or the photo's original file name. */
  name: string
  bitmap: ImageBitmap
  /** Samples only: the marks made by hand, which the pixel tests compare the fitting against. */
  marks?: FaceMarks
}

/** The live camera: a playing video of the user's camera (videoWidth × videoHeight pixels). */
export interface CameraFace {
  kind: 'camera'
  video: HTMLVideoElement
}

export type FaceSource = PictureFace | CameraFace
