import type { HandlerDeps, Handlers } from './types.ts'

type TeamHandlers = Pick<
  Handlers,
  | 'getTeamWorkspace'
  | 'joinTeamWorkspace'
  | 'leaveTeamWorkspace'
  | 'shareTeamDrafts'
  | 'shareTeamMappings'
  | 'teamArrivals'
  | 'teamDraftVersions'
  | 'settleTeamConflict'
  | 'claimTeamDrafts'
  | 'renewTeamClaims'
  | 'releaseTeamClaims'
  | 'recordTeamSends'
  | 'decideTeamSends'
  | 'teamSendRecords'
>

/**
 * Settings › Team workspace. The password arrives with the join and goes no further than main's
 * service, which hands it to the keychain: what the page gets back is the status, never it. The
 * service writes what happened to main's log (src/node/team/workspace-service.ts). The drafts'
 * exchange with its replica: src/node/team/draft-exchange.ts.
 */
export function createTeamHandlers(deps: Pick<HandlerDeps, 'team'>): TeamHandlers {
  return {
    getTeamWorkspace: async () => deps.team.status(),
    joinTeamWorkspace: (url, username, password) => deps.team.join(url, username, password),
    leaveTeamWorkspace: () => deps.team.leave(),
    shareTeamDrafts: (shares) => deps.team.share(shares),
    shareTeamMappings: (shares) => deps.team.shareMappings(shares),
    teamArrivals: (since, limit) => deps.team.arrivals(since, limit),
    teamDraftVersions: (kind, id) => deps.team.versions(kind, id),
    settleTeamConflict: (choice) => deps.team.settle(choice),
    claimTeamDrafts: (request) => deps.team.claim(request),
    renewTeamClaims: (run) => deps.team.renewClaims(run),
    releaseTeamClaims: (run, drafts) => deps.team.releaseClaims(run, drafts),
    recordTeamSends: (run, outcomes) => deps.team.recordSends(run, outcomes),
    decideTeamSends: (records) => deps.team.decideSends(records),
    teamSendRecords: (destination, drafts) => deps.team.sendRecords(destination, drafts),
  }
}
