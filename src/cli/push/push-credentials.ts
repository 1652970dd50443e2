import { homedir } from 'node:os'
import { join } from 'node:path'
import { normaliseBaseUrl } from '#node/profiles/profile-rules.ts'
import { createTokenStore, type MissingToken, type TokenStore } from '#node/secrets/token-store.ts'
import { isSendableToken } from '#node/service/client.ts'
import { DEFAULT_SENDING, type Profile, type TokenEncoding } from '#shared/profile.ts'
import { destinationKindOf, hasOwnAddress } from '#shared/sync/destination.ts'
import { CliError } from '../io.ts'
import { readProfilesReadOnly } from './push-profiles.ts'

/**
 * Where `push` gets its address and token: an environment variable (never an argument, which
 * would show in the process list and the shell history), or a profile of the app, read from the
 * app's profiles.json (read only: the app may be running) with its token from the OS keychain,
 * exactly where the app keeps them. A keychain token is used only when it was set for the profile's
 * present address.
 */

export interface Credentials {
  baseUrl?: string
  tokenEncoding: TokenEncoding
  getToken(): Promise<string | undefined>
  /** What to do when the service refuses the token, naming where it came from (a sentence, no stop). */
  tokenRemedy: string
  /** From the profile, unless the command line says otherwise. */
  profile?: Profile
}

/** What an environment variable's name may be, as shells take it. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** A dry run's token: none, since nothing is sent (`push --dry-run` reads no keychain or variable). */
export const noToken = async (): Promise<string | undefined> => undefined

export function tokenFromEnv(
  name: string,
  env: Record<string, string | undefined>,
  tokenEncoding: TokenEncoding = DEFAULT_SENDING.tokenEncoding,
): Credentials {
  const token = VARIABLE_NAME.test(name) ? env[name]?.trim() : undefined
  const holder = looksLikeVariableName(name) ? `the environment variable ${name}` : '--token-env'
  if (!token) throw new CliError(tokenEnvProblem(name, env), 'push')
  // Refused before anything is read or sent, in words of where it came from.
  if (!isSendableToken(token, tokenEncoding))
    throw new CliError(
      `The token ${holder} gives holds spaces, line breaks or other characters a request header cannot carry as it is: check it, or give --token-encoding base64 if the service takes the token so.`,
      'push',
    )
  return { tokenEncoding, getToken: async () => token, tokenRemedy: `Check the token ${holder} gives` }
}

/**
 * Why --token-env's `name` gives no token, in words that never repeat it unless it looks like a
 * variable's name: `--token-env "$CATALOG_TOKEN"` hands over the token itself, and an error
 * message ends up in terminals, CI logs and bug reports.
 */
function tokenEnvProblem(name: string, env: Record<string, string | undefined>): string {
  const given = name.trim()
  const holder = given
    ? Object.keys(env)
        .sort()
        .find((variable) => env[variable]?.trim() === given)
    : undefined
  if (holder !== undefined)
    return `--token-env takes the name of the environment variable that holds the token; it was given the value of the environment variable ${holder} (not repeated here), which names no variable that is set. If ${holder} holds the token, write --token-env ${holder} (without the $).`
  if (!VARIABLE_NAME.test(name))
    return `--token-env takes the name of an environment variable (letters, digits and _, such as CATALOG_TOKEN); what it was given is not one, and is not repeated here in case it is the token itself.`
  if (looksLikeVariableName(name))
    return `The environment variable ${name} is not set or empty: it must hold the API token.`
  return `The environment variable named by --token-env is not set or empty: it must hold the API token. (The name is not repeated here: it does not look like a variable's name, and may be the token itself. Give the name, such as --token-env CATALOG_TOKEN, not "$CATALOG_TOKEN".)`
}

/**
 * A name as people write environment variables (PUSH_TOKEN, CATALOG_TOKEN_2): capitals, each word
 * letters then digits. A token rarely is (letters and digits mixed, lower case, long), so only
 * such a name is repeated in a message.
 */
function looksLikeVariableName(name: string): boolean {
  return name.length <= 64 && name.split('_').every((word) => /^(?:[A-Z]+[0-9]*|[0-9]*)$/.test(word))
}

/** The app's data folder (Electron's userData for the app named "catalog-desk"), or CATALOG_DESK_DATA_DIR. */
export function appDataDir(env: Record<string, string | undefined>): string {
  if (env.CATALOG_DESK_DATA_DIR) return env.CATALOG_DESK_DATA_DIR
  const home = env.HOME ?? homedir()
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'catalog-desk')
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'catalog-desk')
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'catalog-desk')
}

/** What a person can do about a profile without a usable token. */
async function missingTokenMessage(
  profile: Profile & { kind: 'service' },
  missing: MissingToken,
  tokens: Pick<TokenStore, 'availability'>,
): Promise<string> {
  const again = `set it again in the app's Settings, or use --token-env`
  switch (missing) {
    case 'none':
      return `The profile "${profile.name}" has no token in the keychain: set it in the app's Settings, or use --token-env.`
    case 'unbound':
      return `The token of the profile "${profile.name}" was stored by an earlier Catalog Desk without the address it is for, so it is not sent anywhere: ${again}.`
    case 'other-address':
      return `The token of the profile "${profile.name}" was set for another address, not for ${normaliseBaseUrl(profile.baseUrl)}, so it is not sent: ${again}.`
    case 'unreadable': {
      const { reason } = await tokens.availability()
      return `The keychain cannot be read (${reason ?? 'no reason given'}): use --token-env. (A token the app kept in memory only is not reachable from here.)`
    }
  }
}

export interface ProfileOptions {
  /** The keychain; tests pass one of their own. */
  tokens?: Pick<TokenStore, 'lookup' | 'availability'>
  /** --token-encoding, when given: it must agree with the profile's. */
  tokenEncoding?: TokenEncoding
  /** A dry run's: the profile's address and settings, and no token (nothing is sent). */
  withoutToken?: boolean
}

/**
 * The app's profile `name` names (its id, or a name no other profile has), read only, as
 * `push --profile` and `validate --profile` see it; `command` is whose usage an error points at.
 */
export async function findProfile(
  name: string,
  env: Record<string, string | undefined>,
  command = 'push',
): Promise<Profile> {
  const dir = appDataDir(env)
  const { file, profiles, dropped } = await readProfilesReadOnly(dir)
  const wanted = name.trim().toLowerCase()
  // An id names one profile; a name may be shared (the app does not forbid it), and a push to the
  // wrong one of two would send to a service the person did not mean.
  const named = profiles.filter((p) => p.name.trim().toLowerCase() === wanted)
  const profile = profiles.find((p) => p.id === wanted) ?? (named.length === 1 ? named[0] : undefined)
  if (!profile && named.length > 1) {
    throw new CliError(
      `${named.length} profiles are named "${name}" (ids ${named.map((p) => p.id).join(', ')}): name one by its id, --profile takes an id as well as a name.`,
      command,
    )
  }
  if (!profile) {
    const unusable =
      dropped.length > 0 ? ` (${file} also holds entries that cannot be used: ${dropped.join('; ')})` : ''
    throw new CliError(
      `There is no profile "${name}" in ${dir}; the profiles are ${profiles.map((p) => p.id).join(', ')}${unusable}.`,
      command,
    )
  }
  return profile
}

export async function fromProfile(
  name: string,
  env: Record<string, string | undefined>,
  { tokens, tokenEncoding, withoutToken = false }: ProfileOptions = {},
): Promise<Credentials> {
  const profile = await findProfile(name, env)
  if (!hasOwnAddress(profile)) {
    const refusal = destinationKindOf(profile).words.cliRefusal?.(profile.name)
    throw new CliError(refusal ?? `The ${profile.name} profile has no address the CLI can push to.`, 'push')
  }
  if (tokenEncoding !== undefined && tokenEncoding !== profile.tokenEncoding) {
    // The profile says how its service expects the token; a command line does not overrule it.
    throw new CliError(
      `The profile "${profile.name}" sets the token encoding to ${profile.tokenEncoding}; --token-encoding ${tokenEncoding} contradicts it. Leave out --token-encoding (the profile's is used), or change the profile in the app.`,
      'push',
    )
  }
  const baseUrl = normaliseBaseUrl(profile.baseUrl)
  const tokenRemedy = `Set a valid token for the profile "${profile.name}" in the app's Settings, or use --token-env`
  const named = { baseUrl, tokenEncoding: profile.tokenEncoding, tokenRemedy, profile }
  if (withoutToken) return { ...named, getToken: noToken }
  // Asked for this address: a token left from the profile's former address is not handed out.
  const keychain = tokens ?? createTokenStore()
  const found = await keychain.lookup(profile.id, baseUrl)
  if (!found.found) throw new CliError(await missingTokenMessage(profile, found.missing, keychain), 'push')
  const { token } = found
  return { ...named, getToken: async () => token }
}
