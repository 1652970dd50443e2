import { concatBytes } from '../concat-bytes.ts'
/**
 * How much a zip archive (an XLSX workbook) unpacks to, found before anything reads it whole.
 * read-excel-file unzips every entry of a workbook into memory with fflate, at the sizes the
 * entries declare, and then parses the XML whole: a sheet of a few hundred megabytes of repeated
 * XML deflates to under a megabyte, and would hold an import (or the CLI) for minutes at
 * gigabytes. So the archive's directory is read here first, the way fflate reads it (the end
 * record found from the end, each central entry, the data after its local header), and:
 *
 * 1. the sizes the entries declare are added up: over the limit, refused without inflating a byte;
 * 2. then every entry is inflated as fflate would, counting the bytes as they come and keeping
 *    none of them: past the limit (the declared sizes lied), the inflation stops there.
 *
 * Only an archive within the limit both ways is handed on. Inflating is the platform's
 * DecompressionStream (Node's zlib, the browser's own), fed a small stretch at a time so what one
 * stretch can expand to is bounded too (deflate expands at most about 1,032 to 1).
 */

export type UnpackedSize =
  /** Within the limit: the bytes every entry unpacked to, and the entry asked to be kept, if any. */
  | { within: true; bytes: number; kept?: Uint8Array }
  /** What the entries declare is over the limit: nothing was inflated. */
  | { within: false; declared: number }
  /** They declare `declared`, within it, but inflate to more than the limit: the inflation stopped there. */
  | { within: false; declared: number; inflatedPast: number }

/** Why an archive could not even be measured: its directory does not hold together. */
export class DamagedZipError extends Error {
  override name = 'DamagedZipError'
}

interface Entry {
  name: string
  /** 0 stored, 8 deflated; fflate inflates nothing else (it fails on the entry). */
  method: number
  compressedSize: number
  declaredSize: number
  /** Where its data starts: after its local header, whose own name and extra lengths count. */
  dataStart: number
}

/** A ZIP64 size or offset, or more entries than a plain directory counts: over 4 GB, or a forgery. */
const ZIP64_MARK = 0xffff_ffff

/**
 * Compressed bytes handed to the inflater at a time: one stretch expands to at most ~4 MB, so the
 * count is checked at least that often (and each output chunk is counted as it comes).
 */
const STRETCH = 4 * 1024

export async function unpackedSize(
  zip: Uint8Array<ArrayBuffer>,
  limit: number,
  /** An entry whose bytes to keep as they are inflated (a workbook's small `xl/workbook.xml`). */
  keep?: string,
): Promise<UnpackedSize> {
  const list = entries(zip)
  let declared = 0
  for (const entry of list) declared += entry.method === 0 ? entry.compressedSize : entry.declaredSize
  if (declared > limit) return { within: false, declared }
  let bytes = 0
  let kept: Uint8Array[] | undefined
  for (const entry of list) {
    const data = new Uint8Array(zip.buffer, zip.byteOffset + entry.dataStart, entry.compressedSize)
    const chunks = entry.name === keep ? (kept = [] as Uint8Array[]) : undefined
    if (entry.method === 0) {
      bytes += data.length
      chunks?.push(data)
    }
    // An empty entry holds nothing to inflate (a stream of its own would call it cut short).
    else if (entry.method === 8 && data.length > 0)
      bytes = await inflatedCount(data, bytes, limit, entry.name, chunks)
    if (bytes > limit) return { within: false, declared, inflatedPast: bytes }
  }
  return { within: true, bytes, ...(kept && { kept: concatBytes(kept) }) }
}

/**
 * `counted` plus what `data` inflates to, stopping as soon as that passes `limit` (the result is
 * then over it by at most one output chunk). The inflated bytes are dropped, or kept in `chunks`.
 */
async function inflatedCount(
  data: Uint8Array<ArrayBuffer>,
  counted: number,
  limit: number,
  name: string,
  chunks?: Uint8Array[],
): Promise<number> {
  const stream = new DecompressionStream('deflate-raw')
  const writer = stream.writable.getWriter()
  const reader = stream.readable.getReader()
  let total = counted
  let stopped = false
  const feeding = (async () => {
    for (let at = 0; at < data.length && !stopped; at += STRETCH) {
      const stretch = Math.min(STRETCH, data.length - at)
      await writer.write(new Uint8Array(data.buffer, data.byteOffset + at, stretch))
    }
    if (!stopped) await writer.close()
  })()
  // A failure to feed is the read's failure too (the stream errors both ways): said once, below.
  feeding.catch(() => undefined)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      chunks?.push(value)
      if (total > limit) {
        stopped = true
        await reader.cancel()
        await writer.abort().catch(() => undefined)
        return total
      }
    }
    await feeding
    return total
  } catch (error) {
    if (stopped) return total
    throw new DamagedZipError(`its entry ${name} does not inflate`, { cause: error })
  }
}

/** The entries of the central directory, as fflate's `unzip` finds them. */
function entries(zip: Uint8Array): Entry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const u16 = (at: number) => view.getUint16(at, true)
  const u32 = (at: number) => view.getUint32(at, true)
  const fits = (at: number, length: number) => at >= 0 && at + length <= zip.length

  // The end of central directory record: 22 bytes, then a comment of at most 65,535.
  const earliest = Math.max(0, zip.length - 22 - 0xffff)
  let end = zip.length - 22
  while (end >= earliest && u32(end) !== 0x0605_4b50) end--
  if (end < earliest) throw new DamagedZipError('it has no zip directory')
  const count = u16(end + 8)
  let at = u32(end + 16)
  if (count === 0xffff || at === ZIP64_MARK) return [zip64Entry()]
  const found: Entry[] = []
  const decoder = new TextDecoder()
  for (let i = 0; i < count; i++) {
    if (!fits(at, 46) || u32(at) !== 0x0201_4b50) throw new DamagedZipError('its zip directory is cut short')
    const nameLength = u16(at + 28)
    if (!fits(at + 46, nameLength)) throw new DamagedZipError('its zip directory is cut short')
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength))
    const compressedSize = u32(at + 20)
    const declaredSize = u32(at + 24)
    const local = u32(at + 42)
    if (compressedSize === ZIP64_MARK || declaredSize === ZIP64_MARK || local === ZIP64_MARK)
      return [zip64Entry()]
    if (!fits(local, 30)) throw new DamagedZipError(`its entry ${name} lies outside the file`)
    const dataStart = local + 30 + u16(local + 26) + u16(local + 28)
    if (!fits(dataStart, compressedSize)) throw new DamagedZipError(`its entry ${name} is cut short`)
    found.push({ name, method: u16(at + 10), compressedSize, declaredSize, dataStart })
    at += 46 + nameLength + u16(at + 30) + u16(at + 32)
  }
  return found
}

/**
 * A ZIP64 archive, for what the limit is concerned: its marks stand for sizes or offsets beyond
 * 4 GB, which no workbook read here has, so it is measured as one entry declaring that much.
 */
function zip64Entry(): Entry {
  return { name: 'ZIP64', method: 8, compressedSize: 0, declaredSize: 2 ** 32, dataStart: 0 }
}
