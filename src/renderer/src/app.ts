import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { router } from './router.ts'
import type { StartRecovery } from './start-checks.ts'
import { useSkuDraftsStore } from './stores/sku-drafts.ts'

export { router }

/**
 * The app's window: its shell, router and stores, mounted on the page, the list telling `notice`
 * first when there is one (an import rolled back, runs recovered). main.ts loads this module beside
 * the checks before it (start-checks.ts), so the two run in tasks of their own (issue #37).
 */
export async function mountApp({ notice, stillOut, ended }: StartRecovery): Promise<void> {
  const pinia = createPinia()
  // The first page resolved before the mount, which then draws it with the shell: mounted first,
  // the shell alone was laid out and painted in a frame of its own, the page a frame later. A
  // page that fails to load still leaves the shell mounted, as before (the router tries again).
  await router.replace(router.options.history.location).catch(() => undefined)
  createApp(App).use(pinia).use(router).mount('#app')
  // Main installs no update while a sync run or an import is under way. Nothing is under way as
  // the window opens (a reloaded page starts idle), so this waits until the first page is up: the
  // sync store it reads is loaded and built then, not in the start (issue #37).
  requestIdleCallback(
    () => void import('./stores/activity.ts').then(({ reportActivityToMain }) => reportActivityToMain(pinia)),
    { timeout: 1_000 },
  )
  // The team workspace's exchange (issue #41), loaded once the first page is up: with none joined
  // it only asks main, now and then, whether one is.
  requestIdleCallback(
    () => void import('./stores/team-exchange.ts').then(({ startTeamExchange }) => startTeamExchange(pinia)),
    { timeout: 2_000 },
  )
  if (notice) useSkuDraftsStore(pinia).tell(...notice)
  // A page that was gone mid-send (a reload): requests main still has out keep their drafts
  // "sending" until main has the answers, then show them; a team hears what became of them (rare:
  // loaded only then).
  if (stillOut.length || ended.length)
    void import('./stores/answered-late.ts').then(({ settleWhenAnswered }) =>
      settleWhenAnswered({ stillOut, ended }, pinia),
    )
}
