import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { db, skuImports, syncRuns } from './db/index.ts'
import { rollBackInterruptedImport } from './features/import/interrupted-import.ts'
import { recoverInterruptedRuns, recoveredMessage } from './stores/interrupted-sync.ts'
import { drafts } from './words/counting.ts'
import { router } from './router.ts'
import { useSkuDraftsStore } from './stores/sku-drafts.ts'
import { reportActivityToMain } from './stores/activity.ts'
import { sweepUntouchedNewDrafts } from './stores/new-drafts.ts'
import './ui/styles.css'

// Before anything shows or writes drafts: an import cut short by a crash or a closed window is
// rolled back (usually there is none, and this is one localStorage read), and drafts a sync left
// `sending` become `unknown`, so the list never shows a state nobody is working on.
const interrupted = await rollBackInterruptedImport(skuImports)
const { recovered } = await recoverInterruptedRuns(db, syncRuns)
// A "New SKU" or "New app" a closed or crashed window left untouched is deleted (the draft the
// window opens on, a reload of its editor, is left to its editor).
const opened = router.resolve(location.hash.slice(1) || '/').params.id
await sweepUntouchedNewDrafts(typeof opened === 'string' ? opened : undefined)

const pinia = createPinia()
createApp(App).use(pinia).use(router).mount('#app')
// Main installs no update while a sync run or an import is under way.
reportActivityToMain(pinia)
if (interrupted) useSkuDraftsStore(pinia).tell(interrupted)
else if (recovered > 0) useSkuDraftsStore(pinia).tell(recoveredMessage(drafts(recovered)), 'error')
