import type { AppInfo, InvokeResults } from '#shared/ipc.ts'
import type { Channel } from '#shared/ipc-channels.ts'
import type { invokeArguments } from '#shared/ipc-arguments.ts'
import type { z } from '#shared/schema/zod.ts'
import type { AppLog } from '#node/app-log.ts'
import type { FacePhotoStore } from '#node/face-photos.ts'
import type { PreferenceStore } from '#node/preferences.ts'
import type { PreviewAssetLoader } from '#node/preview-assets.ts'
import type { ProfileStore } from '#node/profiles/profile-store.ts'
import type { Redact } from '#node/secrets/redaction.ts'
import type { TokenStore } from '#node/secrets/token-store.ts'
import type { TeamWorkspace } from '#node/team/workspace-service.ts'
import type { UpdateService } from '#node/updates/update-service.ts'

/** What a handler receives: the arguments after the contract's schema has parsed them. */
export type HandlerArgs<C extends Channel> = z.output<(typeof invokeArguments)[C]>

/** One async function per contract channel; a channel without a handler does not compile. */
export type Handlers = { [C in Channel]: (...args: HandlerArgs<C>) => Promise<InvokeResults[C]> }

/**
 * The sandbox embedded in the app, as the handlers need it: what it accepts, and where it listens
 * or why it could not start (the app starts without it; Settings says why).
 */
export interface EmbeddedSandbox {
  /** `http://127.0.0.1:PORT` while it runs; empty when it could not start. */
  url: string
  token: string
  /** Why it could not start. */
  problem?: string
  /** Something to know about it, such as a store file that was set aside. */
  notice?: string
}

/** What the service and sync handlers need: the profiles, the tokens and the embedded sandbox. */
export interface ServiceDeps {
  profiles: ProfileStore
  tokens: TokenStore
  sandbox: EmbeddedSandbox
}

/** What the handlers need from the outside world, injected so they run without Electron. */
export interface HandlerDeps extends ServiceDeps {
  appInfo(): AppInfo
  openExternal(url: string): Promise<void>
  previewAssets: PreviewAssetLoader
  preferences: PreferenceStore
  writeClipboard(text: string): void
  /** Main's log (src/node/app-log.ts): what happened, and what failed, for "Copy diagnostics" too. */
  log: AppLog
  /** Settings › Updates (src/node/updates/update-service.ts). */
  updates: UpdateService
  /** Opens a folder in the system's file manager; resolves to '' when it did, else to why not (Electron's shell.openPath). */
  openPath(path: string): Promise<string>
  /** The app's data folder, as the diagnostics name it. */
  dataDir: string
  /** Removes every token main knows from a text (src/node/secrets/known-tokens.ts). */
  redact: Redact
  /** The try-on's own face photos, in the data folder (src/node/face-photos.ts). */
  facePhotos: FacePhotoStore
  /** Lets the page's next camera request through (the permission handler, src/main/security.ts). */
  camera: { allowOnce(): void }
  /** The team workspace main holds: its address, the desk's name, the replica (src/node/team/). */
  team: TeamWorkspace
}
