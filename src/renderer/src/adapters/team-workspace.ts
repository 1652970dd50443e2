import type {
  ConflictChoice,
  ConflictSettled,
  DraftShare,
  DraftShared,
  DraftVersion,
  MappingShare,
  TeamArrivals,
} from '#shared/team/draft-exchange.ts'
import type { ClaimAnswer, ClaimedDraft, ClaimRequest } from '#shared/team/claims.ts'
import type { DecidedRecord, RunOutcome, SendRecord } from '#shared/team/send-records.ts'
import type { SharedKind } from '#shared/team/shared-documents.ts'
import type { WorkspaceJoin, WorkspaceStatus } from '#shared/team/workspace-status.ts'

/**
 * The team workspace main holds (issue #41). The password goes to main with the join and never
 * comes back: main keeps it in the system keychain, and the status carries none.
 */
export const teamWorkspaceInMain = {
  status: (): Promise<WorkspaceStatus> => window.api.getTeamWorkspace(),
  join: (url: string, username: string, password: string): Promise<WorkspaceJoin> =>
    window.api.joinTeamWorkspace(url, username, password),
  leave: (): Promise<WorkspaceStatus> => window.api.leaveTeamWorkspace(),
  share: (shares: DraftShare[]): Promise<DraftShared[]> => window.api.shareTeamDrafts(shares),
  shareMappings: (shares: MappingShare[]): Promise<void> => window.api.shareTeamMappings(shares),
  arrivals: (since: string, limit: number): Promise<TeamArrivals> => window.api.teamArrivals(since, limit),
  versions: (kind: SharedKind, id: string): Promise<DraftVersion[]> => window.api.teamDraftVersions(kind, id),
  settle: (choice: ConflictChoice): Promise<ConflictSettled> => window.api.settleTeamConflict(choice),
  claim: (request: ClaimRequest): Promise<ClaimAnswer> => window.api.claimTeamDrafts(request),
  renewClaims: (run: string): Promise<ClaimedDraft[]> => window.api.renewTeamClaims(run),
  releaseClaims: (run: string, drafts?: ClaimedDraft[]): Promise<void> =>
    window.api.releaseTeamClaims(run, drafts),
  recordSends: (run: string, outcomes: RunOutcome[]): Promise<void> =>
    window.api.recordTeamSends(run, outcomes),
  decideSends: (records: DecidedRecord[]): Promise<void> => window.api.decideTeamSends(records),
  sendRecords: (destination: string, drafts: ClaimedDraft[]): Promise<SendRecord[]> =>
    window.api.teamSendRecords(destination, drafts),
}
