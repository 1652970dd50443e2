import type { SkuImportWrites } from '#renderer/db/sku-import-writes.ts'

/**
 * An import writes in chunks, so a crash or a closed window mid-import would leave part of a file
 * in the drafts. The batch being written is noted here (localStorage survives a crash and is
 * written synchronously) and rolled back when the app next starts.
 */
const KEY = 'catalog-desk:import-in-progress'

export function markImportStarted(batch: string): void {
  localStorage.setItem(KEY, batch)
}

export function markImportEnded(): void {
  localStorage.removeItem(KEY)
}

/** Rolls back an import that never ended; says how many drafts it put back, if any. */
export async function rollBackInterruptedImport(imports: SkuImportWrites): Promise<string | undefined> {
  const batch = localStorage.getItem(KEY)
  if (!batch) return undefined
  const result = await imports.abortImport(batch)
  markImportEnded()
  const touched = result.restored + result.removed
  return touched === 0
    ? undefined
    : 'An import was interrupted when Catalog Desk last closed. It was rolled back: the drafts are as they were before it.'
}
