import type { AssetBudgets } from './asset-checks/budgets.ts'
import type { AssetCheck } from './asset-checks/results.ts'
import type { invokeArguments } from './ipc-arguments.ts'
import { CHANNELS, type Channel } from './ipc-channels.ts'
import type { ProfileView, TokenEncoding } from './profile.ts'
import type { FacePhoto, FacePhotoFile } from './try-on/face-photo.ts'
import type { z } from './schema/zod.ts'
import type { Outcome, OutcomeKind } from './service/outcome.ts'
import type { WorkspaceJoin, WorkspaceStatus } from './team/workspace-status.ts'
import type { ConflictSettled, DraftShared, DraftVersion, TeamArrivals } from './team/draft-exchange.ts'
import type { ClaimAnswer, ClaimedDraft } from './team/claims.ts'
import type { SendRecord } from './team/send-records.ts'

/**
 * The one contract between the renderer and the main process. Each invoke channel (listed in
 * `ipc-channels.ts`) has an argument schema (in `ipc-arguments.ts`, checked in main before a
 * handler runs) and a result type (here).
 * The preload builds `window.api` from this file; main registers its handler map against it; the
 * browser test harness builds the same `window.api` over a Playwright binding.
 *
 * This file has no runtime imports, so the sandboxed preload that bundles it stays small.
 */

export interface AppInfo {
  name: string
  version: string
  /** Versions of the runtime parts, for the About box and bug reports. */
  versions: { electron?: string; chrome?: string; node: string }
  platform: string
}

export interface ProfilesState {
  profiles: ProfileView[]
  activeId: string
  /** Something the user should know about the stored profiles (a damaged file was set aside). */
  notice?: string
}

export interface TokenSaved {
  storage: 'keychain' | 'memory'
  /** Set when the token could not go to the keychain: what happened and what it means. */
  notice?: string
}

export interface ConnectionTest {
  /** The service answered and took the token: requests with this profile can go out. */
  ok: boolean
  kind: OutcomeKind
  status?: number
  /** What happened, for the person who pressed the button. */
  message: string
  url: string
  durationMs: number
  /** How the token was written after "Bearer" for this test (the profile's, or the one asked for). */
  encoding?: TokenEncoding
}

/** Which preview asset to load: one of the samples bundled in `resources/`, or one from the web. */
export type PreviewAssetRequest =
  { source: 'sample'; name: 'model' | 'environment' } | { source: 'url'; url: string }

export interface PreviewAsset {
  bytes: Uint8Array
  /** The media type the bytes were served as (or the bundled file's), e.g. model/gltf-binary. */
  contentType: string
  /** A short name to show: the file name of the sample or of the address. */
  name: string
}

/**
 * What Settings shows about this computer: the local-address setting, the asset budgets and the
 * embedded sandbox.
 */
export interface LocalSettings {
  /** Whether main fetches preview files from this computer and local networks (off by default). */
  allowLocalAddresses: boolean
  /** What "Check assets" judges models and pictures by: the defaults until the person changes them. */
  assetBudgets: AssetBudgets
  sandbox: EmbeddedSandboxState
}

/** The embedded sandbox: where it listens (and anything to know about its store), or why it does not. */
export type EmbeddedSandboxState =
  { running: true; url: string; notice?: string } | { running: false; problem: string }

/** A KTX2 texture as plain pixels, each level 8-bit RGBA, largest first. */
export interface TranscodedTexture {
  width: number
  height: number
  /** Colour in sRGB (a base colour), rather than linear values (a normal or roughness map). */
  srgb: boolean
  levels: Array<{ width: number; height: number; data: Uint8Array }>
}

/** Settings › Updates as kept by main (preferences.json). */
export interface UpdateSettings {
  /** Check the feed by itself at most once a day (on unless the person turns it off). */
  automatic: boolean
  /** The feed's address; empty for the build's own feed (electron-builder's `publish`). */
  feedAddress: string
}

/**
 * Where the updater stands: no feed to ask (`not-set-up`), nothing asked yet this session (`idle`),
 * asking, what the last check found, the download, and an update ready to install.
 */
export type UpdatePhase =
  'not-set-up' | 'idle' | 'checking' | 'up-to-date' | 'available' | 'downloading' | 'downloaded' | 'failed'

export interface UpdateStatus {
  phase: UpdatePhase
  /** The version running now. */
  currentVersion: string
  /** The version the feed offers (the latest one, when up to date). */
  version?: string
  /** How much of the update has arrived, 0 to 100, while it downloads. */
  percent?: number
  /** What to tell the person: why updates are not set up, what went wrong, why the install waits. */
  message?: string
  /** When the last check was made (milliseconds since 1970), asked or automatic; absent before any. */
  lastCheckAt?: number
  /** Where the checks go: the address from Settings, the build's own feed, or nowhere. */
  feed: 'address' | 'build' | 'none'
  /** A sync run or an import is under way: no update is installed until it has ended. */
  busy: boolean
  /** Whether this copy can install an update itself (an installed build); otherwise it only says one exists. */
  canInstall: boolean
  settings: UpdateSettings
}

/**
 * What main knows of requests the sync engine sent (`syncAnswers`), by request id: the outcome, or
 * `sending` while the request is still out. A request main does not know (sent before main last
 * started, or too long ago) is absent.
 */
export type SyncAnswers = Record<string, Outcome | 'sending'>

/** What the page is doing that an update must not cut short. */
export interface PageActivity {
  sync: boolean
  import: boolean
}

export interface InvokeResults {
  getAppInfo: AppInfo
  openExternal: void
  listProfiles: ProfilesState
  saveProfile: ProfilesState
  removeProfile: ProfilesState
  activateProfile: ProfilesState
  setToken: TokenSaved
  clearToken: void
  testConnection: ConnectionTest
  loadPreviewAsset: PreviewAsset
  transcodeTexture: TranscodedTexture
  checkAssets: AssetCheck[]
  getLocalSettings: LocalSettings
  setAllowLocalAddresses: LocalSettings
  setAssetBudgets: LocalSettings
  writeClipboard: void
  syncSend: Outcome
  syncAnswers: SyncAnswers
  getUpdateStatus: UpdateStatus
  checkForUpdates: UpdateStatus
  setUpdateSettings: UpdateStatus
  installUpdate: void
  reportActivity: void
  openLogsFolder: void
  getDiagnostics: string
  addFacePhoto: FacePhoto
  listFacePhotos: FacePhoto[]
  readFacePhoto: FacePhotoFile
  deleteFacePhoto: void
  allowCameraOnce: void
  getTeamWorkspace: WorkspaceStatus
  joinTeamWorkspace: WorkspaceJoin
  leaveTeamWorkspace: WorkspaceStatus
  shareTeamDrafts: DraftShared[]
  shareTeamMappings: void
  teamArrivals: TeamArrivals
  teamDraftVersions: DraftVersion[]
  settleTeamConflict: ConflictSettled
  claimTeamDrafts: ClaimAnswer
  renewTeamClaims: ClaimedDraft[]
  releaseTeamClaims: void
  recordTeamSends: void
  decideTeamSends: void
  teamSendRecords: SendRecord[]
}

export type ChannelArgs<C extends Channel> = z.input<(typeof invokeArguments)[C]>

export type Api = {
  [C in Channel]: (...args: ChannelArgs<C>) => Promise<InvokeResults[C]>
}

/** The IPC channel name of a contract entry; prefixed so no other code's channel can collide. */
export const ipcChannel = (channel: Channel) => `catalog-desk:${channel}`

export type Invoke = (channel: Channel, args: unknown[]) => Promise<unknown>

/** Builds `window.api` over a transport: `ipcRenderer.invoke` in the app, a binding in tests. */
export function buildApi(invoke: Invoke): Api {
  return Object.fromEntries(
    CHANNELS.map((channel) => [channel, (...args: unknown[]) => invoke(channel, args)]),
  ) as Api
}
