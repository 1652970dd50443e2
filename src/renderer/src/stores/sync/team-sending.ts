import { ref } from 'vue'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import type { WorkspaceStatus } from '#shared/team/workspace-status.ts'
import { teamWorkspaceInMain } from '../../adapters/team-workspace.ts'
import type { useProfilesStore } from '../profiles.ts'

/** How a run to the active destination goes out from a team workspace, as the pre-flight says it. */
export interface TeamSending {
  /** The desk's name there. */
  desk: string
  /** The workspace's server answers no one now: its replication waits to retry, or was refused. */
  unreachable: boolean
}

/**
 * Whether a run to the active profile's destination is claimed in a team workspace first (issue
 * #42): joined, and the destination shared (every one but the built-in Sandbox). Read with the
 * rest of the pre-flight; undefined when the desk sends on its own.
 */
export function useTeamSending(profiles: ReturnType<typeof useProfilesStore>) {
  const teamSending = ref<TeamSending>()

  /** Reads it again; a status main could not give leaves the note out (a run claims as it starts, and says why it cannot). */
  async function read() {
    const destination = profiles.active?.destination
    let status: WorkspaceStatus | undefined
    try {
      status = await teamWorkspaceInMain.status()
    } catch {
      status = undefined
    }
    teamSending.value =
      status &&
      status.state === 'joined' &&
      destination !== undefined &&
      destination !== EMBEDDED_SANDBOX_DESTINATION
        ? {
            desk: status.name,
            unreachable: !['starting', 'sending', 'up-to-date'].includes(status.replication.kind),
          }
        : undefined
  }

  return { teamSending, read }
}
