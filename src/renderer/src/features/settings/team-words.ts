import type { WorkspaceReplication } from '#shared/team/workspace-status.ts'
import { counted } from '#renderer/words/counting.ts'

/** What Settings says a workspace's replication is doing: a headline, and why when there is a why. */
export function replicationWords(replication: WorkspaceReplication): { headline: string; detail?: string } {
  switch (replication.kind) {
    case 'starting':
      return { headline: 'Connecting…' }
    case 'sending':
      return { headline: 'Sending…' }
    case 'up-to-date':
      return { headline: 'Up to date' }
    case 'offline':
      return { headline: 'Offline: will retry', detail: replication.reason }
    case 'unauthorized':
      return { headline: 'The server refused the name and password', detail: replication.reason }
    case 'failed':
      return { headline: 'Not replicating', detail: replication.reason }
  }
}

/** How many documents from the workspace this desk set aside, as Settings says it. */
export const setAsideWords = (count: number): string =>
  `${counted(count, 'document')} from the workspace ${count === 1 ? 'was' : 'were'} set aside`
