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
import './ui/styles.css'

// Before anything shows or writes drafts: an import cut short by a crash or a closed window is
// rolled back (usually there is none, and this is one localStorage read), and drafts a sync left
// `sending` become `unknown`, so the list never shows a state nobody is working on.
const interrupted = await rollBackInterruptedImport(skuImports)
const { recovered } = await recoverInterruptedRuns(db, syncRuns)

const pinia = createPinia()
createApp(App).use(pinia).use(router).mount('#app')
// Main installs no update while a sync run or an import is under way.
reportActivityToMain(pinia)
if (interrupted) useSkuDraftsStore(pinia).tell(interrupted)
else if (recovered > 0) useSkuDraftsStore(pinia).tell(recoveredMessage(drafts(recovered)), 'error')
