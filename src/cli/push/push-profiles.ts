import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { defaultProfilesData, parseProfilesFile, PROFILES_FILE_NAME } from '#node/profiles/profiles-file.ts'
import type { Profile } from '#shared/profile.ts'
import { CliError } from '../io.ts'

/**
 * The app's profiles as `push --profile` sees them: profiles.json read, parsed and checked with the
 * app's own rules, and never written, renamed or copied. The app may be running and is the only one
 * that repairs the file (sets a damaged one aside, drops entries it cannot use).
 */
export interface ReadOnlyProfiles {
  file: string
  profiles: Profile[]
  /** Entries of the file that could not be used, each with the reason (the app would leave them out). */
  dropped: string[]
}

export async function readProfilesReadOnly(dir: string): Promise<ReadOnlyProfiles> {
  const file = join(dir, PROFILES_FILE_NAME)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    // No file yet: the app has only its built-in profiles, as it would show them.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { file, profiles: defaultProfilesData().profiles, dropped: [] }
    }
    throw new CliError(`Cannot read the app's profiles ${file}: ${(error as Error).message}`, 'push')
  }
  const content = parseProfilesFile(text)
  switch (content.kind) {
    case 'corrupt':
      throw new CliError(
        `The app's profiles ${file} cannot be used (${content.reason}): open Catalog Desk, which sets it aside, or use --base-url with --token-env.`,
        'push',
      )
    case 'newer':
      // Written by a newer app: the entries this version understands are usable as they are.
      return { file, profiles: content.data.profiles, dropped: [] }
    case 'current':
      return { file, profiles: content.data.profiles, dropped: content.dropped }
  }
}
