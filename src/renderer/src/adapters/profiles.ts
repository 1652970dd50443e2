import type { ConnectionTest, ProfilesState, TokenSaved } from '#shared/ipc.ts'
import type { Profile, TokenEncoding } from '#shared/profile.ts'

/**
 * The service profiles and their tokens, kept by main. Each call answers with the profiles as
 * they are now; a token goes to main and never comes back.
 */
export const profilesInMain = {
  list: (): Promise<ProfilesState> => window.api.listProfiles(),
  save: (profile: Profile): Promise<ProfilesState> => window.api.saveProfile(profile),
  remove: (id: string): Promise<ProfilesState> => window.api.removeProfile(id),
  activate: (id: string): Promise<ProfilesState> => window.api.activateProfile(id),
  setToken: (id: string, token: string): Promise<TokenSaved> => window.api.setToken(id, token),
  clearToken: (id: string): Promise<void> => window.api.clearToken(id),
  /** An empty batch with the profile's address and token: proves both, creates nothing. */
  testConnection: (id: string, encoding?: TokenEncoding): Promise<ConnectionTest> =>
    window.api.testConnection(id, encoding),
}
