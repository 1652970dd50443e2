/** The invoke channels between the renderer and main: the names the rest of the contract is keyed by. */
export const CHANNELS = [
  'getAppInfo',
  /** Opens a link in the user's browser; only https links leave the app. */
  'openExternal',
  'listProfiles',
  /** Adds or replaces a profile; a changed base URL drops the profile's token. */
  'saveProfile',
  'removeProfile',
  'activateProfile',
  /** Stores a profile's token in the OS keychain. There is no channel that reads a token back. */
  'setToken',
  'clearToken',
  /** Sends an empty batch with the profile's address and token, and says what came of it. */
  'testConnection',
  /**
   * The bytes of a 3D model or environment image for the AR preview: a bundled sample, or a web
   * address fetched by main (the renderer's CSP lets it fetch nothing itself).
   */
  'loadPreviewAsset',
  /**
   * A KTX2 (Basis) texture of a preview model as plain pixels: Basis's transcoder needs `new
   * Function`, which the page's CSP refuses, so main runs it, on a thread of its own and within a
   * budget a texture and a model (src/node/ktx2-transcoder-thread.ts).
   */
  'transcodeTexture',
  /**
   * Checks the files a draft names (its models and pictures): each address fetched through the
   * guarded fetcher and read (the glTF-Validator for models) once a call, asked conditionally when
   * main checked it before, and judged against the budgets (src/shared/asset-checks/).
   */
  'checkAssets',
  /**
   * This computer's side of the app: "Allow local addresses", the asset budgets and how the
   * embedded sandbox is doing.
   */
  'getLocalSettings',
  /** Lets main fetch preview files from this computer and local networks, or stops it again. */
  'setAllowLocalAddresses',
  /**
   * The budgets "Check assets" judges by from its next call on (the defaults to restore them); read
   * in main as a stored file is, so main never keeps budgets it could not read back.
   */
  'setAssetBudgets',
  /** Puts text on the system clipboard (the renderer has no clipboard permission). */
  'writeClipboard',
  /**
   * The sync engine's transport, for every operation: one request of the operation named by its key
   * in the operation table (src/shared/service/operations.ts), built by main from the table with
   * the given profile and its token (read in main, never sent here), classified and redacted.
   * Never resent by main: the engine decides. The engine's id of the request goes with it, so that
   * main can say what came of it to a page that was not there for the answer (`syncAnswers`).
   */
  'syncSend',
  /**
   * What came of requests the engine sent (by its request ids) that main still knows: asked when a
   * page finds requests it has no answer for (a reload, a window closed and opened again while main
   * ran). With `wait`, main answers once none of them is still out.
   */
  'syncAnswers',
  /** Settings › Updates: where updates come from, what the last check found, what is downloading. */
  'getUpdateStatus',
  /** Asks the feed now (the person pressed "Check for updates"); an update found is downloaded. */
  'checkForUpdates',
  /** "Check for updates automatically" and the feed's address (empty: the build's own feed). */
  'setUpdateSettings',
  /** "Restart to update": refused while a sync or an import runs. */
  'installUpdate',
  /** The page says whether a sync run or an import is under way, so main never installs an update then. */
  'reportActivity',
  /** Opens the folder of main's log in the system's file manager. */
  'openLogsFolder',
  /** The text "Copy diagnostics" puts on the clipboard: versions, system, profiles' addresses, last errors; never a token. */
  'getDiagnostics',
  /**
   * The try-on's own face photos (issue #39), kept in the app's data folder only: added from the
   * page's file input (main reads the kind from the bytes; the name is only shown), listed, read
   * back and deleted by main's id.
   */
  'addFacePhoto',
  'listFacePhotos',
  'readFacePhoto',
  'deleteFacePhoto',
  /**
   * The person clicked "Turn camera on": main lets the page's next camera request through, once
   * (src/main/security.ts). Without this call every camera request is refused.
   */
  'allowCameraOnce',
  /**
   * The team workspace (issue #41): where the desk stands with it (the page asks again while it
   * shows it: main pushes nothing), joining one (the password goes to main, which keeps it in the
   * keychain: no channel gives it back) and leaving it.
   */
  'getTeamWorkspace',
  'joinTeamWorkspace',
  'leaveTeamWorkspace',
  /**
   * The drafts' exchange with the workspace's replica in main (src/shared/team/draft-exchange.ts):
   * what this desk edited, shared on the revision it was based on; what arrived after a sequence
   * the page keeps, checked in main first. The column mappings saved here go the same way.
   */
  'shareTeamDrafts',
  'shareTeamMappings',
  'teamArrivals',
  /** A draft's versions in conflict, to compare, and the person's choice among them. */
  'teamDraftVersions',
  'settleTeamConflict',
  /**
   * A run's claims on the drafts it is about to send to a shared destination (issue #42,
   * src/shared/team/claims.ts), taken, renewed and released on the workspace's server by main.
   */
  'claimTeamDrafts',
  'renewTeamClaims',
  'releaseTeamClaims',
  /** A run's outcomes, written on the workspace's server as the drafts' send records (issue #42). */
  'recordTeamSends',
  /** A person's decisions about drafts whose outcome was not known, written there for every desk. */
  'decideTeamSends',
  /** What this desk's replica holds of drafts' send records, for a run leaving them out. */
  'teamSendRecords',
] as const

export type Channel = (typeof CHANNELS)[number]
