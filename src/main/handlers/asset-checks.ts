import { memoryCache } from '#node/asset-checks/asset-cache.ts'
import { CONCURRENCY } from '#node/asset-checks/asset-fetch.ts'
import { judge } from '#shared/asset-checks/judge.ts'
import { assetClassOf } from '#shared/asset-checks/results.ts'
import type { HandlerDeps, Handlers } from './types.ts'

/**
 * "Check assets" in the app: each call is one run of the CLI's checker (a file many drafts name is
 * fetched and read once), and what main found before is kept for the session, so checking again
 * asks each server whether the file changed (ETag, Last-Modified) instead of downloading it.
 */
export function createAssetCheckHandlers(deps: HandlerDeps): Pick<Handlers, 'checkAssets'> {
  const cache = memoryCache()
  return {
    checkAssets: async (refs) => {
      // Loaded on the first check, not at start: the glTF-Validator is large, and most sessions never check.
      const [{ createAssetChecker }, { sharedInspectionThread }] = await Promise.all([
        import('#node/asset-checks/asset-checker.ts'),
        import('#node/asset-checks/model-inspection-thread.ts'),
      ])
      // The budgets of the moment (Settings › Asset budgets): a change counts from the next check.
      const budgets = deps.preferences.current().assetBudgets
      const checker = createAssetChecker({
        allowLocalAddresses: () => deps.preferences.current().allowLocalAddresses,
        budgets,
        concurrency: CONCURRENCY.default,
        cache,
        // Models are validated on a thread of their own: main's event loop answers IPC meanwhile.
        inspectModel: sharedInspectionThread.inspectModel,
      })
      return Promise.all(
        refs.map(async (ref) =>
          judge(
            { ...(await checker.check(ref.url, assetClassOf(ref.kind))), url: ref.url },
            ref.kind,
            budgets,
          ),
        ),
      )
    },
  }
}
