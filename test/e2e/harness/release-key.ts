import { generateKeyPairSync } from 'node:crypto'
import { publicKeyText } from '#node/updates/release-signature.ts'

/**
 * The release key of the browser tests, made for this run: its public half is handed to main's
 * update service as the built-in keys are (fixtures.ts), and the tests' feeds sign with it.
 */
export const releaseKey = generateKeyPairSync('ed25519')
export const releasePublicKey = publicKeyText(releaseKey.publicKey)
