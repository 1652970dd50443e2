import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test'
import { createHandlers } from '#main/handlers/index.ts'
import { createDispatcher } from '#main/ipc-dispatch.ts'
import { EMBEDDED_SANDBOX_TOKEN } from '#main/embedded-sandbox.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { createAppLog, type AppLog } from '#node/app-log.ts'
import { createFacePhotoStore } from '#node/face-photos.ts'
import { openPreferences } from '#node/preferences.ts'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import type { OriginHandler } from '#node/app-origin.ts'
import { thumbnailRoute } from '#node/thumbnail-route.ts'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import { knownTokens, rememberingTokens } from '#node/secrets/known-tokens.ts'
import { createTokenStore, type TokenStore } from '#node/secrets/token-store.ts'
import { createTeamWorkspace, WORKSPACE_SECRET_ID } from '#node/team/workspace-service.ts'
import { createUpdateService } from '#node/updates/update-service.ts'
import { type Api, type AppInfo } from '#shared/ipc.ts'
import { CHANNELS } from '#shared/ipc-channels.ts'
import { FeedUpdater } from './feed-updater.ts'
import { HeldAnswers } from './held-answers.ts'
import { releasePublicKey } from './release-key.ts'
import { startStaticServer, type StaticServer } from './static-server.ts'
import { startTeamServer, type TeamServer } from './team-server.ts'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const rendererDir = join(repoRoot, 'out/renderer')
const screenshotDir = join(repoRoot, 'test-results/screenshots')
export const appVersion = (
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }
).version

/** Name of the Playwright binding that stands in for `ipcRenderer.invoke`. */
const INVOKE_BINDING = '__catalogDeskInvoke'
/** Name of the binding the page reports CSP violations through (survives reloads, unlike `window`). */
const REPORT_BINDING = '__catalogDeskReportProblem'

export interface PageProblem {
  kind: 'console.error' | 'pageerror' | 'csp'
  text: string
}

export interface PageProblems {
  /** What went wrong in the page so far; the test fails at teardown unless every entry is allowed. */
  readonly list: PageProblem[]
  /** Declares a problem the test provokes on purpose, so it does not fail the test. */
  allow(pattern: RegExp): void
}

export interface TestFixtures {
  /** URLs the page asked main to open in the user's browser, in order. */
  openedExternally: string[]
  /** What the page put on the system clipboard, in order. */
  clipboard: string[]
  /** Folders the page asked main to open in the file manager, in order. */
  openedPaths: string[]
  /** Main's log, a real file in the test's data folder (`mainLog.file`). */
  mainLog: AppLog
  /** The updater main's update service drives: a stand-in that asks the feed Settings names. */
  updater: FeedUpdater
  /**
   * Main's question before it uses a new feed address (a dialog in the app): the addresses asked
   * about, and the answer given, yes unless a test sets it.
   */
  feedQuestions: { asked: string[]; answer: boolean }
  pageProblems: PageProblems
  /** Everything the bridge handed back to the page, in order: what the renderer could ever see. */
  bridgeResults: unknown[]
  /** Main's answers the test holds back, by channel (a slow keychain or disk): `hold`, then `release`. */
  heldAnswers: HeldAnswers
  /** What main's code wrote to the console during the test. */
  mainLogs: string[]
  /** The real token store (the Secret Service under D-Bus, else memory), under a service name of its own. */
  tokens: TokenStore
  /** The app's embedded sandbox: a real HTTP service on loopback, fresh for every test. */
  sandbox: Sandbox
  /**
   * Ids of profiles whose requests main sends to the embedded sandbox instead (a test adds them):
   * a destination that needs the network (its address is not this computer's, so the page pauses
   * a run to it while offline), reached through the only service a test may talk to. The page and
   * its runs see the profile's own address and destination; main sends with the Sandbox profile.
   */
  reachedThroughSandbox: Set<string>
  /**
   * "Allow local addresses" as the test starts (off, as for a new user). Tests whose preview files
   * are served on loopback turn it on, as a person testing with local files would.
   */
  allowLocalAddresses: boolean
  /**
   * How many times the page told main the person turned the camera on (allowCameraOnce): main's
   * permission handler lets one camera request through for each (src/main/security.ts has the
   * unit tests); here Chromium's own flags decide.
   */
  cameraAllowed: { count: number }
  /**
   * A CouchDB-compatible server for team workspaces (team-server.ts), on loopback, started for the
   * tests that use it. Main's team workspace is the real service over the test's data folder.
   */
  teamServer: TeamServer
  /**
   * Opens another desk beside the test's page (a team's second person): a browser context of its
   * own (its IndexedDB), with main's handlers over a data folder and keychain entries of its own.
   */
  openDesk: () => Promise<Page>
}

interface WorkerFixtures {
  rendererServer: StaticServer
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  allowLocalAddresses: [false, { option: true }],

  rendererServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      if (!existsSync(join(rendererDir, 'index.html'))) {
        throw new Error(`${rendererDir}/index.html is missing: build the app first (npm run build)`)
      }
      // The thumbnails of the test under way, with its own "Allow local addresses" (see `context`).
      const server = await startStaticServer(rendererDir, (request) => thumbnailsOfTest(request))
      await use(server)
      await server.close()
    },
    { scope: 'worker' },
  ],

  // eslint-disable-next-line no-empty-pattern
  sandbox: async ({}, use) => {
    const sandbox = await startSandbox({ port: 0, token: EMBEDDED_SANDBOX_TOKEN, tokenEncoding: 'either' })
    await use(sandbox)
    await sandbox.close()
  },

  baseURL: async ({ rendererServer }, use) => {
    await use(rendererServer.url)
  },

  // eslint-disable-next-line no-empty-pattern
  openedExternally: async ({}, use) => {
    await use([])
  },

  // eslint-disable-next-line no-empty-pattern
  clipboard: async ({}, use) => {
    await use([])
  },

  // eslint-disable-next-line no-empty-pattern
  openedPaths: async ({}, use) => {
    await use([])
  },

  // eslint-disable-next-line no-empty-pattern
  updater: async ({}, use) => {
    const updater = new FeedUpdater(appVersion)
    await use(updater)
    await updater.dispose()
  },

  // eslint-disable-next-line no-empty-pattern
  feedQuestions: async ({}, use) => {
    await use({ asked: [], answer: true })
  },

  // Filled in by `context`, which makes the log in the test's data folder.
  mainLog: async ({ context }, use) => {
    await use(logs.get(context)!)
  },

  // eslint-disable-next-line no-empty-pattern
  bridgeResults: async ({}, use) => {
    await use([])
  },

  // eslint-disable-next-line no-empty-pattern
  heldAnswers: async ({}, use) => {
    await use(new HeldAnswers())
  },

  // eslint-disable-next-line no-empty-pattern
  cameraAllowed: async ({}, use) => {
    await use({ count: 0 })
  },

  // eslint-disable-next-line no-empty-pattern
  teamServer: async ({}, use) => {
    const server = await startTeamServer()
    await use(server)
    await server.close()
  },

  // eslint-disable-next-line no-empty-pattern
  reachedThroughSandbox: async ({}, use) => {
    await use(new Set())
  },

  // eslint-disable-next-line no-empty-pattern
  mainLogs: async ({}, use) => {
    const logs: string[] = []
    const methods = ['log', 'info', 'warn', 'error', 'debug'] as const
    const originals = methods.map((method) => console[method])
    for (const method of methods) {
      console[method] = (...args: unknown[]) => logs.push(`${method}: ${args.map(String).join(' ')}`)
    }
    await use(logs)
    methods.forEach((method, i) => (console[method] = originals[i]!))
  },

  // eslint-disable-next-line no-empty-pattern
  tokens: async ({}, use) => {
    const service = `Catalog Desk e2e ${crypto.randomUUID()}`
    const tokens = createTokenStore({ service })
    await use(tokens)
    for (const id of ['production', 'staging', WORKSPACE_SECRET_ID, ...createdProfileIds])
      await tokens.clear(id)
  },

  // eslint-disable-next-line no-empty-pattern
  pageProblems: async ({}, use) => {
    const list: PageProblem[] = []
    // A thumbnail main would not show is a tile that says why (the tests that care read it);
    // Chromium's console line about the failed <img> is not a problem of the page.
    const allowed: RegExp[] = [THUMBNAIL_NOT_SHOWN]
    await use({ list, allow: (pattern) => allowed.push(pattern) })
    const unexpected = list.filter((problem) => !allowed.some((pattern) => pattern.test(problem.text)))
    expect(
      unexpected.map((problem) => `${problem.kind}: ${problem.text}`),
      'the page logged errors, threw, or violated the CSP',
    ).toEqual([])
  },

  // Every test gets Playwright's fresh context (so a fresh IndexedDB), wired like the app's window.
  context: async (
    {
      context,
      openedExternally,
      clipboard,
      openedPaths,
      updater,
      feedQuestions,
      pageProblems,
      bridgeResults,
      heldAnswers,
      sandbox,
      tokens,
      allowLocalAddresses,
      reachedThroughSandbox,
      cameraAllowed,
    },
    use,
  ) => {
    const close = await wireDesk(context, {
      openedExternally,
      clipboard,
      openedPaths,
      updater,
      feedQuestions,
      pageProblems,
      bridgeResults,
      heldAnswers,
      sandbox,
      tokens,
      allowLocalAddresses,
      reachedThroughSandbox,
      cameraAllowed,
    })
    await use(context)
    await close()
  },

  // Playwright reads a fixture's dependencies from its parameter's names: each is listed.
  openDesk: async (
    {
      browser,
      contextOptions,
      baseURL,
      viewport,
      openedExternally,
      clipboard,
      openedPaths,
      updater,
      feedQuestions,
      pageProblems,
      bridgeResults,
      heldAnswers,
      sandbox,
      allowLocalAddresses,
      reachedThroughSandbox,
      cameraAllowed,
    },
    use,
  ) => {
    const opened: Array<{ close(): Promise<void> }> = []
    await use(async () => {
      // A desk of its own: its browser context (its IndexedDB), data folder and keychain entries.
      const context = await browser.newContext({ ...contextOptions, baseURL, viewport })
      const tokens = createTokenStore({ service: `Catalog Desk e2e ${crypto.randomUUID()}` })
      const close = await wireDesk(context, {
        openedExternally,
        clipboard,
        openedPaths,
        updater,
        feedQuestions,
        pageProblems,
        bridgeResults,
        heldAnswers,
        sandbox,
        tokens,
        allowLocalAddresses,
        reachedThroughSandbox,
        cameraAllowed,
      })
      opened.push({
        close: async () => {
          // The window first: its exchange asks main until it is closed.
          await context.close()
          await close()
          await tokens.clear(WORKSPACE_SECRET_ID)
        },
      })
      return context.newPage()
    })
    for (const desk of opened) await desk.close()
  },
})

/** What wiring a desk's window needs from the test: its recorders and main's services. */
type DeskDeps = Pick<
  TestFixtures,
  | 'openedExternally'
  | 'clipboard'
  | 'openedPaths'
  | 'updater'
  | 'feedQuestions'
  | 'pageProblems'
  | 'bridgeResults'
  | 'heldAnswers'
  | 'sandbox'
  | 'tokens'
  | 'allowLocalAddresses'
  | 'reachedThroughSandbox'
  | 'cameraAllowed'
>

/**
 * Wires a browser context like the app's window: main's handlers over a data folder of its own,
 * run in the test's process behind the page's bridge. Answers the function that closes them.
 */
async function wireDesk(
  context: BrowserContext,
  {
    openedExternally,
    clipboard,
    openedPaths,
    updater,
    feedQuestions,
    pageProblems,
    bridgeResults,
    heldAnswers,
    sandbox,
    tokens: keychainTokens,
    allowLocalAddresses,
    reachedThroughSandbox,
    cameraAllowed,
  }: DeskDeps,
): Promise<() => Promise<void>> {
  // What main keeps on disk, in a folder of this test's own.
  const dataDir = await mkdtemp(join(tmpdir(), 'catalog-desk-e2e-'))
  const preferences = await openPreferences(dataDir)
  if (allowLocalAddresses) await preferences.update({ allowLocalAddresses: true })
  // As in main: the tokens that pass through the store are kept out of the log and the diagnostics.
  const known = knownTokens()
  const tokens = rememberingTokens(keychainTokens, known)
  const log = createAppLog({ folder: join(dataDir, 'logs'), redact: known.redact, console: false })
  logs.set(context, log)
  const team = createTeamWorkspace({ dataDir, tokens, remember: known.remember, log })
  const handlers = createHandlers({
    profiles: createProfileStore({ dir: dataDir, tokens }),
    tokens,
    sandbox: { url: sandbox.url, token: EMBEDDED_SANDBOX_TOKEN },
    appInfo: (): AppInfo => ({
      name: 'Catalog Desk',
      version: appVersion,
      versions: { node: process.versions.node },
      platform: process.platform,
    }),
    openExternal: async (url) => {
      openedExternally.push(url)
    },
    writeClipboard: (text) => {
      clipboard.push(text)
    },
    previewAssets: createPreviewAssetLoader({
      resourcesDir: join(repoRoot, 'resources'),
      allowLocalAddresses: () => preferences.current().allowLocalAddresses,
    }),
    preferences,
    log,
    // An installed build that names no feed of its own: checks go where Settings says.
    updates: createUpdateService({
      loadUpdater: async () => updater,
      preferences,
      log,
      currentVersion: appVersion,
      buildFeedFile: join(dataDir, 'app-update.yml'),
      dataDir,
      installOnQuit: true,
      releaseKeys: [releasePublicKey],
      confirmFeedAddress: async (address) => {
        feedQuestions.asked.push(address)
        return feedQuestions.answer
      },
    }),
    openPath: async (path) => {
      openedPaths.push(path)
      return ''
    },
    dataDir,
    redact: known.redact,
    facePhotos: createFacePhotoStore({ dataDir }),
    camera: { allowOnce: () => void cameraAllowed.count++ },
    team,
  })
  const dispatch = createDispatcher(handlers, log)
  // Main's thumbnail route, as main makes it: answered by the worker's renderer server.
  thumbnailsOfTest = thumbnailRoute({
    policy: CONTENT_SECURITY_POLICY,
    allowLocalAddresses: () => preferences.current().allowLocalAddresses,
    resourcesDir: join(repoRoot, 'resources'),
  })
  // A rejection here reaches the page as a rejected promise carrying the error's message.
  // Once the test is over, main is gone: the page's calls (its team exchange asks now and then)
  // go unanswered, as a window's would, rather than answered from a data folder being removed.
  let closed = false
  await context.exposeBinding(INVOKE_BINDING, async (_source, channel: string, args: unknown[]) => {
    if (closed) return new Promise<never>(() => {})
    const result = await dispatch(channel, throughSandbox(channel, args, reachedThroughSandbox))
    await heldAnswers.before(channel)
    bridgeResults.push(result)
    if (channel === 'saveProfile') createdProfileIds.add((args[0] as { id: string }).id)
    return result
  })
  await context.exposeBinding(REPORT_BINDING, (_source, problem: PageProblem) => {
    pageProblems.list.push(problem)
  })
  await context.addInitScript(installPageSide, {
    channels: [...CHANNELS],
    invokeBinding: INVOKE_BINDING,
    reportBinding: REPORT_BINDING,
  })
  context.on('console', (message) => {
    if (message.type() !== 'error') return
    pageProblems.list.push({ kind: 'console.error', text: consoleText(message) })
  })
  context.on('weberror', (webError) => {
    const error = webError.error()
    pageProblems.list.push({ kind: 'pageerror', text: error.stack ?? error.message })
  })
  return async () => {
    closed = true
    thumbnailsOfTest = noTestThumbnails
    await team.close()
    // A handler the page called last may still be writing into the folder (its log): rm retries
    // on ENOTEMPTY rather than failing a test that passed.
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 })
  }
}

/** Between tests, nobody's settings apply: the route answers that no test is running. */
const noTestThumbnails: OriginHandler = async () => new Response('No test is running', { status: 503 })
/**
 * The thumbnail route of the test under way. The renderer server lives as long as the worker, a
 * test's settings as long as its context; a test's contexts share the route of the last one made.
 */
let thumbnailsOfTest: OriginHandler = noTestThumbnails

/**
 * A request of a profile the test reaches through the sandbox (`reachedThroughSandbox`), as the
 * Sandbox profile's: a batch sent and the connection test (the engine's probe for the network).
 */
function throughSandbox(channel: string, args: unknown[], profiles: ReadonlySet<string>): unknown[] {
  if (!profiles.has(args[0] as string)) return args
  if (channel === 'syncSend') return ['sandbox', EMBEDDED_SANDBOX_DESTINATION, ...args.slice(2)]
  if (channel === 'testConnection') return ['sandbox', ...args.slice(1)]
  return args
}

/** Chromium's console line for a thumbnail the route answered with a refusal. */
const THUMBNAIL_NOT_SHOWN =
  /^Failed to load resource: the server responded with a status of \d+ .*\/thumbnail\?src=/

/** Each context's main log, for the `mainLog` fixture. */
const logs = new WeakMap<object, AppLog>()

/** Ids of profiles the tests saved, so their tokens can be removed from the keychain afterwards. */
const createdProfileIds = new Set<string>()

export { expect }

function consoleText(message: { text(): string; location(): { url: string; lineNumber: number } }): string {
  const { url, lineNumber } = message.location()
  return url ? `${message.text()} (${url}:${lineNumber})` : message.text()
}

/**
 * Runs in every page before its own scripts, like the preload: builds a frozen `window.api` with
 * one function per contract channel, and records CSP violations. Must be self-contained (it is
 * serialised into the page).
 */
function installPageSide({
  channels,
  invokeBinding,
  reportBinding,
}: {
  channels: string[]
  invokeBinding: string
  reportBinding: string
}) {
  // Typed by hand: the test programme compiles without the DOM library.
  type Binding = (...args: unknown[]) => Promise<unknown>
  interface CspViolationEvent {
    effectiveDirective: string
    blockedURI: string
    sourceFile: string
    lineNumber: number
    sample: string
  }
  const page = globalThis as unknown as Record<string, Binding> & {
    document: { addEventListener(type: string, listener: (event: CspViolationEvent) => void): void }
  }

  // Each answer reaches the page in a task of its own, as Electron's IPC delivers it: a binding's
  // answer comes through the DevTools protocol, whose tasks Chromium leaves out of the Long Tasks
  // API, so what the page did with an answer would never count as a long task (long-tasks.ts).
  const later = setTimeout // the browser's own, even if a test fakes the page's clock later
  const inTask = (answer: Promise<unknown>) =>
    new Promise((resolve, reject) =>
      answer.then(
        (value) => later(() => resolve(value), 0),
        (error: unknown) => later(() => reject(error), 0),
      ),
    )
  const api = Object.fromEntries(
    channels.map((channel) => [channel, (...args: unknown[]) => inTask(page[invokeBinding]!(channel, args))]),
  )
  Object.defineProperty(globalThis, 'api', { value: Object.freeze(api), enumerable: true })

  const violations: string[] = []
  Object.defineProperty(globalThis, '__cspViolations', { value: violations })
  page.document.addEventListener('securitypolicyviolation', (event) => {
    const where = `${event.sourceFile || '(document)'}:${event.lineNumber}`
    const sample = event.sample ? ` sample: ${event.sample}` : ''
    const text = `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${where}${sample}`
    violations.push(text)
    void page[reportBinding]!({ kind: 'csp', text })
  })
}

/** `globalThis` in the page, for code passed to `page.evaluate`. */
export type AppWindow = typeof globalThis & { api: Api; __cspViolations: string[] }

/** Saves a full-page screenshot to `test-results/screenshots/<name>.png` and attaches it to the report. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(screenshotDir, `${name}.png`)
  await mkdir(screenshotDir, { recursive: true })
  await page.screenshot({ path, fullPage: true })
  await test.info().attach(name, { path, contentType: 'image/png' })
  return path
}

/**
 * Runs axe on the page (WCAG 2.x A and AA rules) and returns the serious and critical violations,
 * one readable line per rule and offending element, so `expect(await axe(page)).toEqual([])` shows
 * what to fix.
 */
export async function axe(
  page: Page,
  options: { include?: string; exclude?: string } = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
  if (options.include) builder = builder.include(options.include)
  if (options.exclude) builder = builder.exclude(options.exclude)
  const results = await builder.analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `[${violation.impact}] ${violation.id}: ${violation.help} — ${node.target.join(' ')}\n` +
          `  ${node.failureSummary?.replaceAll('\n', '\n  ') ?? ''}\n  ${violation.helpUrl}`,
      ),
    )
}
