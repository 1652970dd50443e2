import { diffJson } from '#shared/json-diff.ts'
import { describeColumn } from '#shared/sheet/columns.ts'

/** The fields named when the SKUs sharing a barcode differ in these few only. */
const DIFFERENCES_SAID = 3

/**
 * In which fields SKUs sharing a barcode differ, as a person reads them: each told against the
 * first, as they come, so only the first is kept. A tryout's scraped sheet listed each product once
 * for each of its collections, the rows the same but for the action link, and held 2,053 of them
 * without saying so; left out of the mapping, that column makes them repeats of one SKU, which is
 * then sent once. `push` says it of each hold, `validate` and `convert` of each shared barcode.
 */
export class WhatDiffers {
  private readonly first: unknown
  private readonly paths = new Set<string>()

  constructor(first: unknown) {
    this.first = first
  }

  add(other: unknown): void {
    // Past the few said, the rest need not be looked for.
    if (this.paths.size > DIFFERENCES_SAID) return
    for (const change of diffJson(this.first, other)) this.paths.add(change.path)
  }

  /** "Category, Action link"; undefined when they differ in none, or in more than a few. */
  words(): string | undefined {
    if (this.paths.size === 0 || this.paths.size > DIFFERENCES_SAID) return undefined
    return [...this.paths].map((path) => describeColumn(path)).join(', ')
  }
}
