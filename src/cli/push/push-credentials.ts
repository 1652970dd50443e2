import { homedir } from 'node:os'
import { join } from 'node:path'
import { createProfileStore } from '../../main/profiles/profile-store.ts'
import { normaliseBaseUrl } from '../../main/profiles/profile-rules.ts'
import { createTokenStore, type TokenStore } from '../../main/secrets/token-store.ts'
import type { Profile, TokenEncoding } from '../../shared/profile.ts'
import { CliError } from '../io.ts'

/**
 * Where `push` gets its address and token: an environment variable (never an argument, which
 * would show in the process list and the shell history), or a profile of the app, read from the
 * app's profiles.json with its token from the OS keychain, exactly where the app keeps them.
 */

export interface Credentials {
  baseUrl?: string
  tokenEncoding: TokenEncoding
  getToken(): Promise<string | undefined>
  /** From the profile, unless the command line says otherwise. */
  profile?: Profile
}

export function tokenFromEnv(name: string, env: Record<string, string | undefined>): Credentials {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new CliError(`--token-env takes the name of an environment variable, not "${name}".`, 'push')
  }
  const token = env[name]?.trim()
  if (!token)
    throw new CliError(
      `The environment variable ${name} is not set or empty: it must hold the API token.`,
      'push',
    )
  return { tokenEncoding: 'raw', getToken: async () => token }
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

export async function fromProfile(
  name: string,
  env: Record<string, string | undefined>,
  tokens: TokenStore = createTokenStore(),
): Promise<Credentials> {
  const dir = appDataDir(env)
  const store = createProfileStore({ dir, tokens })
  const { profiles } = await store.list()
  const wanted = name.trim().toLowerCase()
  const profile =
    profiles.find((p) => p.id === wanted) ?? profiles.find((p) => p.name.toLowerCase() === wanted)
  if (!profile) {
    throw new CliError(
      `There is no profile "${name}" in ${dir}; the profiles are ${profiles.map((p) => p.id).join(', ')}.`,
      'push',
    )
  }
  if (profile.kind === 'embedded-sandbox') {
    throw new CliError(
      `The ${profile.name} profile is the sandbox inside the app, which has no fixed address: run "catalog-desk sandbox" and push to it with --base-url and --token-env.`,
      'push',
    )
  }
  const token = await tokens.get(profile.id)
  if (!token) {
    const { keychain, reason } = await tokens.availability()
    throw new CliError(
      keychain
        ? `The profile "${profile.name}" has no token in the keychain: set it in the app's Settings, or use --token-env.`
        : `The keychain cannot be read (${reason ?? 'no reason given'}): use --token-env. (A token the app kept in memory only is not reachable from here.)`,
      'push',
    )
  }
  return {
    baseUrl: normaliseBaseUrl(profile.baseUrl),
    tokenEncoding: profile.tokenEncoding,
    getToken: async () => token,
    profile,
  }
}
