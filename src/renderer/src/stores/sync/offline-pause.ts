import { computed, ref } from 'vue'
import { needsNetwork } from '#shared/sync/destination.ts'
import { isOffline, watchNetwork } from '../../adapters/network.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { useLiveRun } from './live-run.ts'

/**
 * The computer's connection as the Sync page follows it: offline, a run to a destination that
 * needs the network is paused by the page (nothing would reach it), and goes on by itself when the
 * connection is back; a run to a destination on this computer goes on.
 */
export function useOfflinePause(
  profiles: ReturnType<typeof useProfilesStore>,
  running: Pick<ReturnType<typeof useLiveRun>, 'slot' | 'live' | 'patch' | 'throughput'>,
  addLog: (text: string) => void,
) {
  const { slot, live, patch, throughput } = running
  /** Whether the page says the computer is offline now. */
  const offline = ref(isOffline())
  /** Whether the active profile's destination needs the network: offline, nothing reaches it. */
  const targetNeedsNetwork = computed(() => !!profiles.active && needsNetwork(profiles.active))

  function goneOffline() {
    offline.value = true
    const engine = slot.engine
    // A run to a destination on this computer (the Sandbox, a loopback address) goes on.
    if (!engine || !live.value?.needsNetwork || engine.status.state !== 'running') return
    engine.pause()
    patch({ offline: true })
    addLog('This computer is offline: sending paused. It goes on by itself when the connection is back.')
  }

  function backOnline() {
    offline.value = false
    const engine = slot.engine
    if (!engine || !live.value?.offline) return
    patch({ offline: false })
    // Only the page's own offline pause is lifted: one the run took meanwhile (a failing service, a
    // refused token) waits for the person.
    const status = engine.status
    if (status.state !== 'paused' || status.reason !== 'requested') return
    addLog('Back online: sending again.')
    throughput.restart()
    engine.resume()
  }

  watchNetwork({ offline: goneOffline, online: backOnline })

  return { offline, targetNeedsNetwork, goneOffline }
}
