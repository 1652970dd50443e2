import type { ConnectionTest, ProfilesState, TokenSaved } from '#shared/ipc.ts'
import type { Profile, TokenEncoding } from '#shared/profile.ts'

/** The profiles asked for as the window opened, until the first `list()` takes the answer. */
let askedAhead: Promise<ProfilesState> | undefined

/**
 * Asks main for the profiles as the window opens (main.ts), so the answer travels while the app's
 * modules load rather than after the list has mounted: the first-run list names its destination
 * from it (issue #37). The first `list()` takes this answer, or its failure.
 */
export function listProfilesAhead(): void {
  askedAhead = window.api.listProfiles()
  // Whoever takes the answer sees a failure; untaken (a window that opens elsewhere), it is no error.
  askedAhead.catch(() => {})
}

/**
 * The service profiles and their tokens, kept by main. Each call answers with the profiles as
 * they are now; a token goes to main and never comes back.
 */
export const profilesInMain = {
  list: (): Promise<ProfilesState> => {
    const answer = askedAhead ?? window.api.listProfiles()
    askedAhead = undefined
    return answer
  },
  save: (profile: Profile): Promise<ProfilesState> => window.api.saveProfile(profile),
  remove: (id: string): Promise<ProfilesState> => window.api.removeProfile(id),
  activate: (id: string): Promise<ProfilesState> => window.api.activateProfile(id),
  setToken: (id: string, token: string): Promise<TokenSaved> => window.api.setToken(id, token),
  clearToken: (id: string): Promise<void> => window.api.clearToken(id),
  /** An empty batch with the profile's address and token: proves both, creates nothing. */
  testConnection: (id: string, encoding?: TokenEncoding): Promise<ConnectionTest> =>
    window.api.testConnection(id, encoding),
}
