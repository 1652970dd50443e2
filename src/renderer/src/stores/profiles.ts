import { defineStore } from 'pinia'
import { computed, shallowRef } from 'vue'
import type { ProfilesState, TokenSaved } from '#shared/ipc.ts'
import type { Profile } from '#shared/profile.ts'
import { destinationAddressName } from '#shared/sync/destination.ts'
import { profilesInMain } from '../adapters/profiles.ts'
import { useConnectionTests } from './profiles/connection-tests.ts'

/** A destination as the app names it: by the profiles that lead there. */
export interface Place {
  destination: string
  name: string
}

/**
 * The service profiles as main keeps them. The renderer holds no token: it can hand one to main,
 * ask whether one is set, and have it removed, nothing more. Their connection tests are a part of
 * their own (`profiles/connection-tests.ts`).
 */
export const useProfilesStore = defineStore('profiles', () => {
  const state = shallowRef<ProfilesState>()
  const connectionTests = useConnectionTests()
  const { tests, encodingTests } = connectionTests

  const profiles = computed(() => state.value?.profiles ?? [])
  const active = computed(() => profiles.value.find((profile) => profile.id === state.value?.activeId))
  /**
   * The destinations the profiles lead to, each once, the active one first, each named by its
   * profiles ("Sandbox", or "Sandbox / Local" when two lead to the same service).
   */
  const places = computed<Place[]>(() => {
    const names = new Map<string, string[]>()
    const ordered = [...profiles.value].sort(
      (a, b) => Number(b.id === active.value?.id) - Number(a.id === active.value?.id),
    )
    for (const profile of ordered)
      names.set(profile.destination, [...(names.get(profile.destination) ?? []), profile.name])
    return [...names].map(([destination, list]) => ({ destination, name: list.join(' / ') }))
  })
  /** A destination as the app names it: by its profiles, or by its address when none leads there any more. */
  function placeName(destination: string): string {
    return (
      places.value.find((place) => place.destination === destination)?.name ??
      destinationAddressName(destination)
    )
  }

  async function load() {
    state.value = await profilesInMain.list()
  }

  async function save(profile: Profile) {
    state.value = await profilesInMain.save(profile)
  }

  async function remove(id: string) {
    state.value = await profilesInMain.remove(id)
  }

  async function activate(id: string) {
    state.value = await profilesInMain.activate(id)
  }

  async function setToken(id: string, token: string): Promise<TokenSaved> {
    const saved = await profilesInMain.setToken(id, token)
    // What the connection tests found was about the former token (or its absence).
    delete tests.value[id]
    delete encodingTests.value[id]
    await load()
    return saved
  }

  async function clearToken(id: string) {
    await profilesInMain.clearToken(id)
    delete tests.value[id]
    delete encodingTests.value[id]
    await load()
  }

  return {
    state,
    profiles,
    active,
    places,
    placeName,
    ...connectionTests,
    load,
    save,
    remove,
    activate,
    setToken,
    clearToken,
  }
})
