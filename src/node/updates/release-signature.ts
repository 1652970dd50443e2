import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { createReadStream } from 'node:fs'

/**
 * A release's signatures (docs/updates.md). Each installer of a release has a detached
 * signature beside it on the feed, `<installer>.sig`: one line per release key that signed it,
 * `<key id> <Ed25519 signature, base64>`. What is signed is not the installer's bytes themselves
 * but a statement about them: this header, the version the feed offers it as, and the installer's
 * SHA-512. Binding the version keeps an old, genuinely signed installer from being offered again
 * as a newer version; the hash lets a file of a hundred megabytes be read as a stream, never
 * whole into memory.
 *
 * The public keys built into the app are src/node/updates/release-keys.ts; the signing is
 * scripts/sign-release.ts (release-folder.ts), run by the release workflow.
 */
const STATEMENT_HEADER = 'Catalog Desk release signature v1'

/** The signature of `<installer>` is `<installer>.sig`, in the same folder of the feed. */
export const SIGNATURE_SUFFIX = '.sig'
/** A signature file is a few lines (one a key: 106 bytes each); anything longer is not one. */
export const MAX_SIGNATURE_FILE_BYTES = 4096
/** Signatures of more keys than this in one file are not read (a rotation needs two). */
const MAX_SIGNATURE_LINES = 16

export interface ReleaseKey {
  /** The first 16 hex digits of the SHA-256 of the raw public key: which key a signature line names. */
  id: string
  key: KeyObject
}

const ED25519_PUBLIC_KEY_BYTES = 32
const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * A public key as the app builds it in: the key's 32 bytes in base64url (a JWK's `x`), as
 * `node scripts/sign-release.ts --new-key` prints it. Throws on anything else: a
 * built-in key that cannot be read is a mistake in the build, not something to skip.
 */
export function releaseKeyOf(text: string): ReleaseKey {
  const raw = BASE64URL.test(text) ? Buffer.from(text, 'base64url') : Buffer.alloc(0)
  if (raw.length !== ED25519_PUBLIC_KEY_BYTES) {
    throw new Error(
      `A release key must be an Ed25519 public key's 32 bytes in base64url (43 characters): "${text.slice(0, 60)}" is not one`,
    )
  }
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: text }, format: 'jwk' })
  return { id: keyIdOf(raw), key }
}

/** The built-in form of a public key (or of a private key's public half). */
export function publicKeyText(key: KeyObject): string {
  const { x } = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'jwk' })
  if (!x) throw new Error('not an Ed25519 key')
  return x
}

function keyIdOf(raw: Buffer): string {
  return createHash('sha256').update(raw).digest('hex').slice(0, 16)
}

/** A private key from its PKCS#8 PEM, refused unless it is Ed25519 (what the app verifies). */
export function privateReleaseKeyOf(pem: string): KeyObject {
  const key = createPrivateKey(pem)
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`The release key must be an Ed25519 key, not ${key.asymmetricKeyType ?? 'a secret key'}`)
  }
  return key
}

/** The file's SHA-512 in base64 (as electron-builder's latest*.yml gives it), read as a stream. */
export function sha512OfFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha512')
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('base64')))
  })
}

function statement(version: string, sha512: string): Buffer {
  return Buffer.from(`${STATEMENT_HEADER}\nversion: ${version}\nsha512: ${sha512}\n`, 'utf8')
}

/** One line of a signature file: this key's signature of the installer offered as `version`. */
export function signatureLine(privateKey: KeyObject, version: string, sha512: string): string {
  const signature = sign(null, statement(version, sha512), privateKey)
  const id = releaseKeyOf(publicKeyText(privateKey)).id
  return `${id} ${signature.toString('base64')}`
}

export type SignatureCheck =
  | { verified: true; keyId: string }
  /** Why not, as the end of "Version X was downloaded, but …". */
  | { verified: false; problem: string }

const LINE = /^([0-9a-f]{16}) ([A-Za-z0-9+/]{86}==)$/

/**
 * Whether the signature file `text` holds a signature, by one of `keys`, of the installer whose
 * SHA-512 is `sha512`, offered as `version`. Lines of keys this build does not know are passed
 * over (a release signed during a rotation carries the old key's line and the new one's).
 */
export function checkSignature(
  text: string,
  version: string,
  sha512: string,
  keys: readonly ReleaseKey[],
): SignatureCheck {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
  const parsed = lines.map((line) => LINE.exec(line))
  if (lines.length === 0 || lines.length > MAX_SIGNATURE_LINES || parsed.some((match) => !match)) {
    return { verified: false, problem: 'its signature file is not one Catalog Desk can read' }
  }
  const signed = statement(version, sha512)
  const known = parsed.flatMap((match) => {
    const key = keys.find((candidate) => candidate.id === match![1])
    return key ? [{ key, signature: Buffer.from(match![2]!, 'base64') }] : []
  })
  if (known.length === 0) {
    return {
      verified: false,
      problem: `it is not signed with a release key this version of Catalog Desk knows (signed with ${parsed.map((match) => match![1]).join(', ')})`,
    }
  }
  const good = known.find(({ key, signature }) => verify(null, signed, key.key, signature))
  if (good) return { verified: true, keyId: good.key.id }
  return {
    verified: false,
    problem: `its signature does not match it: the file is not the version ${version} the release key signed`,
  }
}
