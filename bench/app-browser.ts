import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext } from '@playwright/test'
import playwrightConfig from '../playwright.config.ts'
import { type AppInfo, type ProfilesState } from '#shared/ipc.ts'
import { BUILT_IN_PROFILES } from '#shared/profile.ts'
import { destinationKindOf, destinationOf } from '#shared/sync/destination.ts'
import type { OriginHandler } from '#node/app-origin.ts'
import { thumbnailRoute } from '#node/thumbnail-route.ts'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'
import { CHANNELS, type Channel } from '#shared/ipc-channels.ts'
import { ensureChromium } from '../test/e2e/harness/chromium.ts'
import { startStaticServer, type StaticServer } from '../test/e2e/harness/static-server.ts'
import { log } from './result.ts'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** The built renderer, as `npm run build` makes it. */
export const rendererDir = join(repoRoot, 'out/renderer')
/** The app's resources (the preview's samples), as main finds them unpackaged. */
export const resourcesDir = join(repoRoot, 'resources')

/** Builds the app when there is no built renderer yet (what `npm run build` makes). */
export function ensureBuilt(): void {
  if (existsSync(join(rendererDir, 'index.html'))) return
  log('No built renderer in out/renderer: running electron-vite build…')
  const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: repoRoot, stdio: ['ignore', 2, 2] })
  if (build.status !== 0) throw new Error('The build failed: run `npm run build` and look at its output.')
}

/**
 * The built renderer, served as the browser tests serve it (same files, same CSP), with main's
 * thumbnail route: as a new user has it (no local addresses) unless a scenario gives its own.
 */
export function serveRenderer(
  thumbnails: OriginHandler = thumbnailRoute({
    policy: CONTENT_SECURITY_POLICY,
    allowLocalAddresses: () => false,
    resourcesDir,
  }),
): Promise<StaticServer> {
  return startStaticServer(rendererDir, thumbnails)
}

/** The Chromium the browser tests use (found or installed as for them), launched with their options. */
export async function launchChromium(): Promise<Browser> {
  log(`Chromium: ${await ensureChromium()}`)
  return chromium.launch({ headless: true, ...playwrightConfig.use?.launchOptions })
}

/**
 * A fresh context (so a fresh IndexedDB) whose pages get a `window.api` before the app's scripts
 * run, as the browser tests' harness provides it: `getAppInfo` answers, `listProfiles` and
 * `getTeamWorkspace` answer as main does on a first run (the page asks for the profiles as it
 * opens, and whether a team workspace is joined now and then), and the
 * channels a scenario hands in (main's own handlers, run here); every other channel says it is not
 * available.
 */
export async function appContext(
  browser: Browser,
  handlers: Partial<Record<Channel, (...args: never[]) => Promise<unknown>>> = {},
): Promise<BrowserContext> {
  handlers = {
    listProfiles: () => Promise.resolve(firstRunProfiles()),
    // No team workspace joined, as on a first run: the page's exchange asks now and then.
    getTeamWorkspace: () => Promise.resolve({ state: 'none' }),
    ...handlers,
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 820 } })
  const info: AppInfo = {
    name: 'Catalog Desk',
    version: 'bench',
    versions: { node: process.versions.node },
    platform: process.platform,
  }
  for (const [channel, handler] of Object.entries(handlers)) {
    await context.exposeBinding(`${BINDING_PREFIX}${channel}`, (_source, ...args: unknown[]) =>
      (handler as (...args: unknown[]) => Promise<unknown>)(...args),
    )
  }
  await context.addInitScript(installApi, {
    channels: [...CHANNELS],
    handled: Object.keys(handlers),
    prefix: BINDING_PREFIX,
    info,
  })
  return context
}

const BINDING_PREFIX = '__benchMain_'

/** Runs in the page before its own scripts; self-contained (it is serialised). */
function installApi({
  channels,
  handled,
  prefix,
  info,
}: {
  channels: string[]
  handled: string[]
  prefix: string
  info: AppInfo
}) {
  const page = globalThis as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
  // Each answer reaches the page in a task of its own, as Electron's IPC delivers it (see the
  // browser tests' harness, test/e2e/harness/fixtures.ts): so it counts in the page's long tasks.
  const later = setTimeout // the browser's own, even if a test fakes the page's clock later
  const inTask = (answer: Promise<unknown>) =>
    new Promise((resolve, reject) =>
      answer.then(
        (value) => later(() => resolve(value), 0),
        (error: unknown) => later(() => reject(error), 0),
      ),
    )
  const api = Object.fromEntries(
    channels.map((channel) => [
      channel,
      channel === 'getAppInfo'
        ? () => Promise.resolve(info)
        : handled.includes(channel)
          ? (...args: unknown[]) => inTask(page[`${prefix}${channel}`]!(...args))
          : () => Promise.reject(new Error(`${channel} is not available in the benchmark`)),
    ]),
  )
  Object.defineProperty(globalThis, 'api', { value: Object.freeze(api), enumerable: true })
}

/** Main's answer on a first run: the built-in profiles, the Sandbox active (as main lists them). */
function firstRunProfiles(): ProfilesState {
  // The embedded sandbox's address is known only while the app runs; nothing is sent to it here.
  const sandboxUrl = 'http://127.0.0.1:4010'
  return {
    activeId: 'sandbox',
    profiles: BUILT_IN_PROFILES.map((profile) => {
      const { ownToken, tokenStorage } = destinationKindOf(profile)
      return {
        ...profile,
        url: profile.kind === 'service' ? profile.baseUrl : sandboxUrl,
        destination: destinationOf(profile, sandboxUrl),
        builtIn: true,
        hasToken: !ownToken,
        tokenStorage: tokenStorage ?? null,
      }
    }),
  }
}
