import { assetRefSchema, MAX_ASSETS_A_CHECK } from './asset-checks/asset-refs.ts'
import { validateBudgets, type AssetBudgets } from './asset-checks/budgets.ts'
import { z } from './schema/zod.ts'
import type { Channel } from './ipc-channels.ts'
import { profileSchema, TOKEN_ENCODINGS } from './profile.ts'
import { serviceRequestSchema } from './service/operations.ts'
import { activitySchema, updateSettingsSchema } from './update-feed.ts'
import { MAX_FACE_PHOTO_BYTES } from './try-on/face-photo.ts'
import { EXCHANGE_BATCH } from './team/draft-exchange.ts'
import { SENT_STATES } from './team/shared-documents.ts'

const profileId = z.string().min(1).max(64)
/** A pasted token: bounded, so a mistaken paste of a whole file is refused before it reaches the keychain. */
const token = z.string().min(1).max(8_192)
/** The destination a run was started for (src/shared/sync/destination.ts): main sends only there. */
const runDestination = z.string().min(1).max(2_048)
/** A draft in the team workspace (src/shared/team/draft-exchange.ts): its kind, id and a revision. */
const sharedKind = z.enum(['sku', 'app'])
const draftId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/)
const runId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/)
/** The sync engine's id of a request: its run's id, the engine's and a count (src/shared/sync/engine.ts). */
const requestId = z.string().regex(/^[A-Za-z0-9_/-]{1,200}$/)
const claimedDraft = z.strictObject({ kind: sharedKind, id: draftId })
const draftToClaim = z.strictObject({
  kind: sharedKind,
  id: draftId,
  position: z.number().int().nonnegative(),
  label: z.string().max(1_000),
})
const revision = z.string().regex(/^\d{1,10}-[0-9a-f]{1,64}$/)
/** An outcome of a run, for the draft's send record in the team workspace (src/shared/team/send-records.ts). */
const runOutcome = z.strictObject({
  kind: sharedKind,
  draft: draftId,
  position: z.number().int().nonnegative(),
  label: z.string().max(1_000),
  state: z.enum(SENT_STATES),
  at: z.number().nonnegative(),
  remoteId: z.string().min(1).max(200).optional(),
  message: z.string().max(10_000).optional(),
  sent: z.unknown().optional(),
  action: z.literal('update').optional(),
})
/** A person's decision about another run's draft, as its send record (main names who decided). */
const decidedRecord = runOutcome.extend({
  destination: z.string().min(1).max(2_000),
  desk: z.string().min(1).max(200),
  run: runId,
  recordedBy: z.string().min(1).max(200),
  decision: z.enum(['created', 'resend']),
})
/** A draft's version for the team workspace. */
const draftShare = z.strictObject({
  kind: sharedKind,
  id: draftId,
  base: revision.optional(),
  payload: z.record(z.string(), z.unknown()),
  deleted: z.boolean(),
  editedAt: z.number().nonnegative(),
})
/** A saved column mapping for the team workspace: a header, its field (null: ignored), when. */
const mappingShare = z.strictObject({
  header: z.string().min(1).max(500),
  path: z.string().min(1).max(300).nullable(),
  editedAt: z.number().nonnegative(),
})
/**
 * The schema of each channel's arguments, as a tuple. Main checks every call against it before a
 * handler runs; `satisfies` makes a channel without a schema, or a schema without a channel, a
 * compile error.
 */
export const invokeArguments = {
  getAppInfo: z.tuple([]),
  openExternal: z.tuple([z.url({ protocol: /^https$/ })]),
  listProfiles: z.tuple([]),
  saveProfile: z.tuple([profileSchema()]),
  removeProfile: z.tuple([profileId]),
  activateProfile: z.tuple([profileId]),
  setToken: z.tuple([profileId, token]),
  clearToken: z.tuple([profileId]),
  // An encoding forces that one for this test only ("Test both" in Settings); else the profile's.
  testConnection: z.tuple([profileId, z.enum(TOKEN_ENCODINGS).optional()]),
  loadPreviewAsset: z.tuple([
    z.discriminatedUnion('source', [
      z.object({ source: z.literal('sample'), name: z.enum(['model', 'environment']) }),
      z.object({ source: z.literal('url'), url: z.url({ protocol: /^https?$/ }).max(2_048) }),
    ]),
  ]),
  // A texture inside a model the preview loaded (at most 50 MB), and the id the page gave that
  // model's load: main's budgets for what it transcodes are a texture's and a model's.
  transcodeTexture: z.tuple([
    z.instanceof(Uint8Array).refine((bytes) => bytes.byteLength <= 50 * 1024 * 1024),
    z.uuid(),
  ]),
  // The assets of the drafts one "Check assets" asks about (src/shared/asset-checks/asset-refs.ts).
  checkAssets: z.tuple([z.array(assetRefSchema()).min(1).max(MAX_ASSETS_A_CHECK)]),
  getLocalSettings: z.tuple([]),
  setAllowLocalAddresses: z.tuple([z.boolean()]),
  // Budgets in their shape (numbers only, so the messages below never repeat anything else sent),
  // then read as preferences.json's are: each problem names its budget, a budget left out takes its
  // default, and what main keeps is what it reads back at the next start.
  setAssetBudgets: z.tuple([
    z
      .record(z.string().max(64), z.strictObject({ recommended: z.number(), maximum: z.number() }))
      .transform((value, context): AssetBudgets => {
        const { budgets, problems } = validateBudgets(value)
        if (budgets) return budgets
        for (const message of problems) context.addIssue({ code: 'custom', message })
        return z.NEVER
      }),
  ]),
  // A payload export of a few thousand SKUs fits; a runaway string does not.
  writeClipboard: z.tuple([z.string().max(20_000_000)]),
  // An operation of the table by its key, with that operation's argument (its shape only: what the
  // items hold is the service's to judge, and a refused one is split out and shown). Main builds the
  // request from the table: nothing here becomes a method, a path or a header.
  syncSend: z.tuple([profileId, runDestination, serviceRequestSchema(), requestId]),
  // A page asks for the requests of one run it found open: at most the run's outbox holds.
  syncAnswers: z.tuple([z.array(requestId).max(1_000), z.boolean()]),
  getUpdateStatus: z.tuple([]),
  checkForUpdates: z.tuple([]),
  // An address main would not ask (http to another computer, a password in it) is refused here.
  setUpdateSettings: z.tuple([updateSettingsSchema]),
  installUpdate: z.tuple([]),
  reportActivity: z.tuple([activitySchema]),
  openLogsFolder: z.tuple([]),
  getDiagnostics: z.tuple([]),
  // The name and bytes of a picked file. Only the shape and a ceiling here: main's store judges
  // the name, the size and the kind (by the bytes), and says which file and why; the page asks the
  // same before sending, so a file over the limit never crosses.
  addFacePhoto: z.tuple([
    z.string().max(1_024),
    z.instanceof(Uint8Array).refine((bytes) => bytes.byteLength <= 2 * MAX_FACE_PHOTO_BYTES),
  ]),
  listFacePhotos: z.tuple([]),
  readFacePhoto: z.tuple([z.uuid()]),
  deleteFacePhoto: z.tuple([z.uuid()]),
  allowCameraOnce: z.tuple([]),
  getTeamWorkspace: z.tuple([]),
  // The address, the user name and the password, bounded only: main's check of the workspace says
  // in words what is wrong with the address or the name (src/node/team/workspace-check.ts).
  joinTeamWorkspace: z.tuple([z.string().max(2_048), z.string().max(256), token]),
  leaveTeamWorkspace: z.tuple([]),
  shareTeamDrafts: z.tuple([z.array(draftShare).max(EXCHANGE_BATCH)]),
  shareTeamMappings: z.tuple([z.array(mappingShare).max(EXCHANGE_BATCH)]),
  // A sequence as the replica gave it ('0' for the start), and how many documents at most.
  teamArrivals: z.tuple([z.string().min(1).max(256), z.number().int().min(1).max(EXCHANGE_BATCH)]),
  teamDraftVersions: z.tuple([sharedKind, draftId]),
  settleTeamConflict: z.tuple([
    z.strictObject({
      kind: sharedKind,
      id: draftId,
      kept: z.strictObject({ payload: z.record(z.string(), z.unknown()), deleted: z.boolean() }),
      seen: z.array(revision).min(1).max(100),
    }),
  ]),
  // A destination's address as `destinationOf` gives it, the run's id, its drafts a batch at a time.
  claimTeamDrafts: z.tuple([
    z.strictObject({
      destination: z.string().min(1).max(2_000),
      run: runId,
      drafts: z.array(draftToClaim).min(1).max(EXCHANGE_BATCH),
      action: z.literal('update').optional(),
    }),
  ]),
  renewTeamClaims: z.tuple([runId]),
  releaseTeamClaims: z.tuple([runId, z.array(claimedDraft).max(EXCHANGE_BATCH).optional()]),
  recordTeamSends: z.tuple([runId, z.array(runOutcome).min(1).max(EXCHANGE_BATCH)]),
  decideTeamSends: z.tuple([z.array(decidedRecord).min(1).max(EXCHANGE_BATCH)]),
  teamSendRecords: z.tuple([z.string().min(1).max(2_000), z.array(claimedDraft).min(1).max(EXCHANGE_BATCH)]),
} satisfies Record<Channel, z.ZodTuple>
