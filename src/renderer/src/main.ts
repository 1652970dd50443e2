import './ui/styles.css'
import { listProfilesAhead } from './adapters/profiles.ts'

// The fonts to look for first (styles.css), before anything of the app is laid out.
if (navigator.userAgent.includes('Linux')) document.documentElement.dataset.platform = 'linux'

// Main's answer travels while the modules below load and run (adapters/profiles.ts).
listProfilesAhead()

// The window's modules run in stages, each in a task of its own (all at once, they made one task
// of 70–200 ms before the list showed: issue #37); the page's head fetches them all at once
// (electron.vite.config.ts). First Zod and the contract's schemas (built when first used); then
// the counts' formatter (the page's first Intl object loads the locale's data, 10–20 ms); then
// Dexie and the database's definition; then the checks' (the rest of the database layer); then
// the app's (Vue, the shell, its router and stores); then the SKU list's, the first page (a lazy
// route, router.ts, run ahead of the mount when the window opens on it), whose first rows are
// read meanwhile (`openListAhead`) and drawn in a task after the mount's (use-sku-window.ts).
await import('#shared/validation/validate.ts')
await import('./words/counting.ts')
const { db } = await import('./db/connection.ts')
// Opened (on a first run, made) while the stages below load and run; a failure is heard by the
// first read, as it would be without this.
db.open().catch(() => undefined)
const { openListAhead, recoverInterrupted, sweepUntouchedNewDrafts } = await import('./start-checks.ts')
const recovery = await recoverInterrupted()
// A "New SKU" or "New app" a closed or crashed window left untouched is deleted (the draft the
// window opens on, a reload of its editor, is left to its editor).
const { router, mountApp } = await import('./app.ts')
const route = router.resolve(location.hash.slice(1) || '/')
const opened = route.params.id
await sweepUntouchedNewDrafts(typeof opened === 'string' ? opened : undefined)
await openListAhead(route.path)

await mountApp(recovery)
