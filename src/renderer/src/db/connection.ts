import { CatalogDatabase } from './database.ts'

/**
 * The app's one database. Dexie opens it on first use; the window's start opens it as soon as its
 * definition has loaded (main.ts), so the opening (on a first run, making it) goes on while the
 * rest of the start's modules load and run.
 */
export const db = new CatalogDatabase()
