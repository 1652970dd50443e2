import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { skuDrafts } from './db/index.ts'
import { rollBackInterruptedImport } from './features/import/interrupted-import.ts'
import { router } from './router.ts'
import { useSkuDraftsStore } from './stores/sku-drafts.ts'
import './ui/styles.css'

// Before anything shows or writes drafts: an import cut short by a crash or a closed window is
// rolled back (usually there is none, and this is one localStorage read).
const interrupted = await rollBackInterruptedImport(skuDrafts)

const pinia = createPinia()
createApp(App).use(pinia).use(router).mount('#app')
if (interrupted) useSkuDraftsStore(pinia).tell(interrupted)
