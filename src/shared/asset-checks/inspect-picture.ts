import { PICTURE_TYPES, sniff, typeWords } from './picture-sniff.ts'
import type { AssetOutcome, AssetProblem, PictureFacts } from './results.ts'

/**
 * A downloaded picture read from its bytes: what it is (sniffed, whatever the server called it)
 * and its pixel size. A web page or anything else that is not a picture is an error whatever
 * field names it; which pictures a field takes is judged later (judge.ts).
 */

/** Served types that say nothing of what a file is. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream'])

const KNOWN = 'PNG, JPEG, WebP, GIF, AVIF, KTX2, Radiance HDR, OpenEXR or SVG'

export function inspectPicture(url: string, bytes: Uint8Array, servedType: string): AssetOutcome {
  const what = sniff(bytes)
  const facts: PictureFacts = { class: 'picture', bytes: bytes.length, servedType }
  if (what) facts.type = what.type
  if (what?.width && what.height) Object.assign(facts, { width: what.width, height: what.height })
  const problems: AssetProblem[] = []
  if (!what) {
    problems.push({
      severity: 'error',
      code: 'not-a-picture',
      message: `It is not a picture the checks recognise (${KNOWN})${servedType ? `; the server calls it ${servedType}` : ''}.`,
    })
  } else if (!Object.hasOwn(PICTURE_TYPES, what.type)) {
    problems.push({
      severity: 'error',
      code: what.type === 'text/html' ? 'web-page' : 'not-a-picture',
      message: `It is ${what.words}, not a picture.`,
    })
  } else if (!GENERIC_TYPES.has(servedType) && !servedType.startsWith('image/')) {
    problems.push({
      severity: 'warning',
      code: 'served-type',
      message: `The server calls it ${typeWords(servedType)} (${servedType}), but it is ${what.words}: some clients will refuse it.`,
    })
  }
  return { url, class: 'picture', facts, problems }
}
