/**
 * Signs a release's installers for the app's updater (docs/installers.md and docs/updates.md):
 *
 *   CATALOG_DESK_RELEASE_KEY="$(cat release-key.pem)" node scripts/sign-release.ts dist [more folders]
 *
 * writes `<installer>.sig` beside every installer each folder's latest*.yml names, signed with the
 * Ed25519 private key(s) in CATALOG_DESK_RELEASE_KEY (PKCS#8 PEM; two keys one after the other
 * during a rotation). It fails, writing nothing, when a key's public half is not built into the app
 * (src/node/updates/release-keys.ts), or an installer named there is missing.
 *
 *   node scripts/sign-release.ts --new-key release-key.pem
 *
 * makes a new key pair: the private key goes into that file (readable by its owner only; an
 * existing file is never overwritten) and the line to add to release-keys.ts is printed.
 */
import { generateKeyPairSync } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { signReleaseFolder } from '#node/updates/release-folder.ts'
import { RELEASE_PUBLIC_KEYS } from '#node/updates/release-keys.ts'
import { privateReleaseKeyOf, publicKeyText, releaseKeyOf } from '#node/updates/release-signature.ts'

const KEY_VARIABLE = 'CATALOG_DESK_RELEASE_KEY'
const PEM_BLOCK = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/g
const USAGE =
  'Usage: node scripts/sign-release.ts <folder>... (the key in CATALOG_DESK_RELEASE_KEY), or node scripts/sign-release.ts --new-key <file>'

async function newKey(file: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  // 'wx': a key already in that file is never replaced by a new one.
  await writeFile(file, pem, { flag: 'wx', mode: 0o600 })
  const text = publicKeyText(publicKey)
  console.log(
    `The private key is in ${file}: keep it offline, and put it in the release workflow's secret ${KEY_VARIABLE}.`,
  )
  console.log(
    `Its public half (key ${releaseKeyOf(text).id}), for RELEASE_PUBLIC_KEYS in src/node/updates/release-keys.ts:`,
  )
  console.log(`  '${text}',`)
}

async function sign(folders: string[]) {
  const pems = process.env[KEY_VARIABLE]?.match(PEM_BLOCK) ?? []
  if (pems.length === 0) {
    throw new Error(`${KEY_VARIABLE} holds no private key (PKCS#8 PEM, "-----BEGIN PRIVATE KEY-----")`)
  }
  const keys = pems.map(privateReleaseKeyOf)
  const trusted = RELEASE_PUBLIC_KEYS.map(releaseKeyOf)
  for (const folder of folders) {
    for (const { name, version } of await signReleaseFolder(folder, keys, trusted)) {
      console.log(`Signed ${name} (version ${version}): ${folder}/${name}.sig`)
    }
  }
}

const [first, ...rest] = process.argv.slice(2)
try {
  if (first === '--new-key' && rest.length === 1) await newKey(rest[0]!)
  else if (first && !first.startsWith('-')) await sign([first, ...rest])
  else throw new Error(USAGE)
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exitCode = 1
}
