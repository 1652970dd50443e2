import type { KeyObject } from 'node:crypto'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { load } from 'js-yaml'
import { messageOf } from '#shared/error-message.ts'
import { z } from '#shared/schema/zod.ts'
import {
  checkSignature,
  publicKeyText,
  releaseKeyOf,
  sha512OfFile,
  SIGNATURE_SUFFIX,
  signatureLine,
  type ReleaseKey,
} from './release-signature.ts'

/** The part of electron-builder's latest*.yml that says which installers a release has. */
const updateInfoSchema = z.object({
  version: z.string().min(1),
  files: z.array(z.object({ url: z.string().min(1), sha512: z.string().min(1) })).min(1),
})

/** The update information files electron-builder writes beside the installers (latest.yml, latest-mac.yml, …). */
const UPDATE_INFO_FILE = /^latest.*\.yml$/
/** What is in a dist folder and is not an installer. */
const NOT_AN_INSTALLER = /\.(yml|yaml|sig|blockmap)$/i

export interface SignedInstaller {
  /** The installer's name as the update information gives it: what the app downloads. */
  name: string
  version: string
  /** The signature written, `<folder>/<name>.sig`. */
  signature: string
}

/** The installer's file name in a latest*.yml's `url`, which may be a name or an address. */
function nameOf(url: string): string {
  const path = URL.parse(url)?.pathname ?? url
  const last = basename(path)
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

/**
 * Signs every installer the folder's latest*.yml files name (docs/installers.md): each
 * gets `<name>.sig` beside it, with one line per key in `privateKeys`, for the version the file
 * names it under. An installer is found by its SHA-512, as the file gives it: electron-builder
 * may name a file in the update information other than on disk (GitHub's "safe" names), and the
 * bytes signed are then exactly the bytes the app will download and electron-updater will check.
 *
 * Refused, with nothing written: a key whose public half is not among `trustedKeys` (the app's
 * built-in keys: it would refuse the release), a folder without update information, and an
 * installer named there that is not in the folder.
 */
export async function signReleaseFolder(
  folder: string,
  privateKeys: readonly KeyObject[],
  trustedKeys: readonly ReleaseKey[],
): Promise<SignedInstaller[]> {
  if (privateKeys.length === 0) throw new Error('No release key to sign with')
  for (const privateKey of privateKeys) {
    const text = publicKeyText(privateKey)
    const { id } = releaseKeyOf(text)
    if (!trustedKeys.some((key) => key.id === id)) {
      throw new Error(
        `The release key ${id} is not one the app trusts (src/node/updates/release-keys.ts), so the app would refuse this release. Add its public half there (${text}) and build again, or sign with a key that is there.`,
      )
    }
  }

  const names = (await readdir(folder)).sort()
  const infoFiles = names.filter((name) => UPDATE_INFO_FILE.test(name))
  if (infoFiles.length === 0) {
    throw new Error(`${folder} has no latest*.yml: build the installers first (npm run dist)`)
  }
  const hashes = new Map<string, Promise<string>>()
  for (const name of names) {
    if (NOT_AN_INSTALLER.test(name) || !(await stat(join(folder, name))).isFile()) continue
    hashes.set(name, sha512OfFile(join(folder, name)))
  }
  async function installerWith(name: string, sha512: string): Promise<string | undefined> {
    if ((await hashes.get(name)) === sha512) return name
    for (const [candidate, hash] of hashes) if ((await hash) === sha512) return candidate
    return undefined
  }

  const toSign = new Map<string, { version: string; sha512: string; from: string }>()
  for (const infoFile of infoFiles) {
    let info: z.infer<typeof updateInfoSchema>
    try {
      info = updateInfoSchema.parse(load(await readFile(join(folder, infoFile), 'utf8')))
    } catch (error) {
      throw new Error(
        `${join(folder, infoFile)} is not update information as electron-builder writes it: ${messageOf(error)}`,
        { cause: error },
      )
    }
    for (const file of info.files) {
      const name = nameOf(file.url)
      const onDisk = await installerWith(name, file.sha512)
      if (!onDisk) {
        throw new Error(
          `${infoFile} names ${file.url}, and no file in ${folder} has its sha512: copy the installers with their update information`,
        )
      }
      const earlier = toSign.get(name)
      if (earlier && earlier.version !== info.version) {
        throw new Error(
          `${earlier.from} and ${infoFile} name ${name} as versions ${earlier.version} and ${info.version}`,
        )
      }
      toSign.set(name, { version: info.version, sha512: file.sha512, from: infoFile })
    }
  }

  const signed: SignedInstaller[] = []
  for (const [name, { version, sha512 }] of toSign) {
    const text = `${privateKeys.map((key) => signatureLine(key, version, sha512)).join('\n')}\n`
    // What the app will do with it, before it is published.
    const check = checkSignature(text, version, sha512, trustedKeys)
    if (!check.verified) throw new Error(`The signature made for ${name} does not verify: ${check.problem}`)
    const signature = join(folder, `${name}${SIGNATURE_SUFFIX}`)
    await writeFile(signature, text)
    signed.push({ name, version, signature })
  }
  return signed
}
