/**
 * What a file is, read from its first bytes rather than taken from the server's Content-Type (a
 * CDN may call anything application/octet-stream, an error page is often served as 200), and a
 * picture's pixel size from its header. Pictures: PNG, JPEG, WebP, GIF, AVIF, KTX2 (a model's
 * textures), Radiance HDR (environments), OpenEXR and SVG (type only); and what an address holds
 * instead of a picture: a web page, JSON, a glTF model.
 *
 * Only headers are read, never pixels: a hostile file costs at most a walk over its bytes.
 */

export interface Sniffed {
  /** A media type: `image/png`, `text/html`, `model/gltf-binary`, … */
  type: string
  /** How a person calls it: "a PNG picture", "a web page (HTML)". */
  words: string
  width?: number
  height?: number
}

/** The media types that are pictures, and how a person calls them. */
export const PICTURE_TYPES: Readonly<Record<string, string>> = {
  'image/png': 'a PNG picture',
  'image/jpeg': 'a JPEG picture',
  'image/webp': 'a WebP picture',
  'image/gif': 'a GIF picture',
  'image/avif': 'an AVIF picture',
  'image/ktx2': 'a KTX2 texture',
  'image/vnd.radiance': 'a Radiance HDR picture',
  'image/x-exr': 'an OpenEXR picture',
  'image/svg+xml': 'an SVG drawing',
}

const OTHER_TYPES: Readonly<Record<string, string>> = {
  'text/html': 'a web page (HTML)',
  'application/json': 'JSON',
  'model/gltf-binary': 'a glTF model (GLB)',
  'model/gltf+json': 'a glTF model (JSON)',
  'application/xml': 'XML',
  'application/pdf': 'a PDF document',
}

/** A person's words for a media type, sniffed or served. */
export function typeWords(type: string): string {
  return (
    PICTURE_TYPES[type] ??
    OTHER_TYPES[type] ??
    (type ? `a file of type ${type}` : 'a file of no declared type')
  )
}

const sniffed = (type: string, width?: number, height?: number): Sniffed =>
  width && height ? { type, words: typeWords(type), width, height } : { type, words: typeWords(type) }

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length))

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte)

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const KTX2 = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a]
const EXR = [0x76, 0x2f, 0x31, 0x01]

/** The file's kind and, for a picture, its size; undefined when nothing known was recognised. */
export function sniff(bytes: Uint8Array): Sniffed | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (startsWith(bytes, PNG)) {
    // The IHDR chunk comes first: width and height at 16 and 20, big-endian.
    return bytes.length >= 24
      ? sniffed('image/png', view.getUint32(16), view.getUint32(20))
      : sniffed('image/png')
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes, view)
  // The signatures in letters, all within the first 12 bytes: read as text once.
  const head = ascii(bytes, 0, 12)
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) {
    return bytes.length >= 10
      ? sniffed('image/gif', view.getUint16(6, true), view.getUint16(8, true))
      : sniffed('image/gif')
  }
  if (head.startsWith('RIFF') && head.startsWith('WEBP', 8)) return webp(bytes, view)
  if (head.startsWith('ftyp', 4)) {
    const brands = ascii(bytes, 8, Math.min(view.getUint32(0) || 0, 64) - 8)
    if (/avi[fs]/.test(brands)) return avif(bytes, view)
  }
  if (startsWith(bytes, KTX2)) {
    // pixelWidth and pixelHeight follow the identifier, vkFormat and typeSize (little-endian).
    return bytes.length >= 28
      ? sniffed('image/ktx2', view.getUint32(20, true), view.getUint32(24, true))
      : sniffed('image/ktx2')
  }
  if (startsWith(bytes, EXR)) return sniffed('image/x-exr')
  if (head.startsWith('glTF')) return sniffed('model/gltf-binary')
  if (head.startsWith('%PDF-')) return sniffed('application/pdf')
  if (head.startsWith('#?')) return radiance(bytes)
  return text(bytes)
}

/** JPEG: the first start-of-frame marker holds the size (height first). */
function jpeg(bytes: Uint8Array, view: DataView): Sniffed {
  let at = 2
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return sniffed('image/jpeg')
    const marker = bytes[at + 1]!
    if (marker === 0xff) {
      at++
      continue
    }
    // Markers without a length: start of image, restart markers, end of image, TEM.
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sniffed('image/jpeg', view.getUint16(at + 7), view.getUint16(at + 5))
    }
    if (marker === 0xd9 || marker === 0xda) return sniffed('image/jpeg')
    at += 2 + view.getUint16(at + 2)
  }
  return sniffed('image/jpeg')
}

/** WebP: the first chunk says which bitstream, and each keeps the size in its own way. */
function webp(bytes: Uint8Array, view: DataView): Sniffed {
  const chunk = ascii(bytes, 12, 4)
  if (chunk === 'VP8 ' && bytes.length >= 30) {
    return sniffed('image/webp', view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff)
  }
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = view.getUint32(21, true)
    return sniffed('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1)
  }
  if (chunk === 'VP8X' && bytes.length >= 30) {
    const width = (bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16)) + 1
    const height = (bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16)) + 1
    return sniffed('image/webp', width, height)
  }
  return sniffed('image/webp')
}

/**
 * AVIF: the size is in an `ispe` property (image spatial extent). A file may hold several (a
 * thumbnail, an alpha plane); the largest is the picture's.
 */
function avif(bytes: Uint8Array, view: DataView): Sniffed {
  let width = 0
  let height = 0
  const limit = Math.min(bytes.length, 64 * 1024) - 16
  for (let at = 4; at <= limit; at++) {
    if (bytes[at] === 0x69 && ascii(bytes, at, 4) === 'ispe') {
      const w = view.getUint32(at + 8)
      const h = view.getUint32(at + 12)
      if (w * h > width * height) [width, height] = [w, h]
    }
  }
  return sniffed('image/avif', width, height)
}

/** Radiance HDR: a header of lines up to an empty one, then the resolution line (`-Y 1024 +X 2048`). */
function radiance(bytes: Uint8Array): Sniffed | undefined {
  const head = ascii(bytes, 0, Math.min(bytes.length, 4096))
  if (!head.startsWith('#?RADIANCE') && !head.startsWith('#?RGBE')) return text(bytes)
  const size = /\n\n([-+])Y (\d+) ([-+])X (\d+)\n/.exec(head.replace(/\r\n/g, '\n'))
  return size
    ? sniffed('image/vnd.radiance', Number(size[4]), Number(size[2]))
    : sniffed('image/vnd.radiance')
}

/**
 * Text formats, after a BOM and white space: what a server answers with instead of a file (a web
 * page, a JSON error), and SVG. HTML is told by the tags the WHATWG's sniffing rules look for.
 */
const HTML_TAGS =
  /^<(!doctype html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s>]/i

function text(bytes: Uint8Array): Sniffed | undefined {
  let at = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0
  while (at < bytes.length && [0x20, 0x09, 0x0a, 0x0d, 0x0c].includes(bytes[at]!)) at++
  const start = ascii(bytes, at, 512)
  if (HTML_TAGS.test(start)) return sniffed('text/html')
  if (start.startsWith('<svg') || (start.startsWith('<?xml') && /<svg[\s>]/.test(ascii(bytes, at, 4096)))) {
    return sniffed('image/svg+xml')
  }
  if (start.startsWith('<?xml')) return sniffed('application/xml')
  if (start.startsWith('{') && /"asset"\s*:/.test(ascii(bytes, at, 64 * 1024)))
    return sniffed('model/gltf+json')
  if (start.startsWith('{') || start.startsWith('[')) return sniffed('application/json')
  return undefined
}
