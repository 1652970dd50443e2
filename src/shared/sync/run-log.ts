/** The live log's words: short lines a catalog person understands, naming items by barcode or app name. */

export function seconds(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`
}

/** How the line for an accepted request ends: the CLI leaves those out of its log (progress says it). */
export const ACCEPTED_LINE_END = ': accepted.'
