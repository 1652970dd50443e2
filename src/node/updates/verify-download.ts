import { basename } from 'node:path'
import { messageOf } from '#shared/error-message.ts'
import { FetchError, guardedFetch } from '../net/guarded-fetch.ts'
import {
  checkSignature,
  MAX_SIGNATURE_FILE_BYTES,
  sha512OfFile,
  SIGNATURE_SUFFIX,
  type ReleaseKey,
  type SignatureCheck,
} from './release-signature.ts'

export interface DownloadToVerify {
  /** The installer as electron-updater downloaded it (its `downloadedFile`). */
  file: string
  /** The version the feed offered it as. */
  version: string
  /** The feed folder the check asked; undefined when the feed is not a folder (not a generic feed). */
  feedFolder: string | undefined
  keys: readonly ReleaseKey[]
}

/** A signature that does not arrive in this long is not waited for. */
const SIGNATURE_TIMEOUT_MS = 30_000

/**
 * Whether a downloaded installer is signed by one of the release keys: its signature is fetched
 * from the same feed folder, `<folder>/<installer name>.sig` (at most 4 KB), and checked against
 * the file's own SHA-512, computed here (not the one the feed gave: the feed is what is not
 * trusted). Never throws: a failure is a problem in words.
 */
export async function verifyDownload({
  file,
  version,
  feedFolder,
  keys,
}: DownloadToVerify): Promise<SignatureCheck> {
  const name = `${basename(file)}${SIGNATURE_SUFFIX}`
  if (feedFolder === undefined) {
    return {
      verified: false,
      problem: `its signature (${name}) cannot be looked for: this build's own feed is not a folder on a web server (a generic feed)`,
    }
  }
  let signature: string
  try {
    const fetched = await guardedFetch(`${feedFolder}/${encodeURIComponent(name)}`, {
      // The feed's address was confirmed by the person (or is the build's own), and may be a
      // mirror on this computer; what comes from it is trusted only once its signature verifies.
      allowLocalAddresses: () => true,
      maxBytes: MAX_SIGNATURE_FILE_BYTES,
      timeoutMs: SIGNATURE_TIMEOUT_MS,
      maxRedirects: 5,
      mediaTypes: 'any',
      typesByExtension: {},
      accept: 'text/plain, application/octet-stream;q=0.9, */*;q=0.1',
    })
    signature = Buffer.from(fetched.bytes).toString('utf8')
  } catch (error) {
    if (error instanceof FetchError && error.status === 404) {
      return { verified: false, problem: `the feed has no signature for it (${name})` }
    }
    return { verified: false, problem: `its signature could not be read (${messageOf(error)})` }
  }
  let sha512: string
  try {
    sha512 = await sha512OfFile(file)
  } catch (error) {
    return { verified: false, problem: `the downloaded file could not be read (${messageOf(error)})` }
  }
  return checkSignature(signature, version, sha512, keys)
}
