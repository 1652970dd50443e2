import { computed, ref, shallowRef } from 'vue'
import {
  applyMappingFile,
  DEFAULT_SETTINGS,
  mappingFileOf,
  parseMappingFile,
  type MappingSettings,
  type SheetMapping,
} from '#shared/sheet/mapping.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { isOwnExport } from '#shared/sheet/app-columns.ts'
import type { FieldPath } from '#shared/sheet/types.ts'
import { download } from '#renderer/adapters/download.ts'
import { messageOf } from '#shared/error-message.ts'
import type { Analysis } from './import-protocol.ts'
import type { ImportState } from './import-state.ts'
import { mappingFileName } from './reading-words.ts'
import { saveMapping } from '#renderer/stores/saved-mappings.ts'

/**
 * The mapping step's choices: the field each column fills, the settings beyond the columns, and
 * the mapping saved for next time or as a file, or loaded from one. Apart from the dry run and the
 * run, which only read it (`sheetMapping`).
 */
export function useColumnMapping(state: ImportState) {
  const { analysis, file, failure, notice } = state
  const mapping = ref<(FieldPath | null)[]>([])
  /** Fixed values, defaults, decimals and options: the mapping beyond its columns. */
  const settings = ref<MappingSettings>(structuredClone(DEFAULT_SETTINGS))
  /** The mapping file applied last, and the columns it set that the person has not changed since. */
  const fromFile = shallowRef<{ name: string; columns: ReadonlySet<number> }>()

  /**
   * Why the file's rows are read as written, without the new-SKU defaults (the file's own
   * settings say so): it is Catalog Desk's export (its draft column), or every column it fills is
   * named by its contract path, as a file written from drafts is. Undefined for any other file:
   * a template filled in, a shop's sheet.
   */
  const readAsWritten = computed<'export' | 'paths' | undefined>(() => {
    const read = analysis.value
    if (read?.settings?.fillDefaults !== false) return undefined
    return isOwnExport(read.headers) ? 'export' : 'paths'
  })

  /** The mapping the analysis found (or nothing, for a new file). */
  function start(found?: Analysis) {
    mapping.value = found?.matches.map((match) => match.path) ?? []
    settings.value = structuredClone(found?.settings ?? DEFAULT_SETTINGS)
    fromFile.value = undefined
  }

  function setField(column: number, path: FieldPath | null) {
    mapping.value = mapping.value.map((current, i) => (i === column ? path : current))
    forgetFromFile([column])
  }

  /**
   * The column fills `path` at the person's word ("Use as barcode", "Use this column instead"); a
   * column that filled it before is dropped. Returns the columns dropped.
   */
  function takeField(column: number, path: FieldPath): number[] {
    const dropped = mapping.value.flatMap((current, i) => (i !== column && current === path ? [i] : []))
    mapping.value = mapping.value.map((current, i) =>
      i === column ? path : dropped.includes(i) ? null : current,
    )
    forgetFromFile([column, ...dropped])
    return dropped
  }

  function forgetFromFile(columns: number[]) {
    const loaded = fromFile.value
    if (!loaded || !columns.some((column) => loaded.columns.has(column))) return
    fromFile.value = { ...loaded, columns: new Set([...loaded.columns].filter((c) => !columns.includes(c))) }
  }

  /** The mapping as the worker reads it: plain JSON data, copied (a Vue proxy, even nested, cannot be posted). */
  function sheetMapping(): SheetMapping {
    return JSON.parse(JSON.stringify({ ...settings.value, columns: mapping.value })) as SheetMapping
  }

  /** Downloads the mapping as a mapping file, for this file's next export or for someone else. */
  function saveMappingFile() {
    if (!analysis.value || !file.value) return
    const content = mappingFileOf(analysis.value.headers, sheetMapping())
    download(
      new File([`${JSON.stringify(content, null, 2)}\n`], mappingFileName(file.value.name), {
        type: 'application/json',
      }),
    )
  }

  /**
   * Applies a mapping file: its columns by header (headers it does not name matched as usual) and
   * its settings. A file that cannot be used changes nothing and says why.
   */
  async function loadMappingFile(chosen: File) {
    const headers = analysis.value?.headers
    if (!headers) return
    state.clearMessages()
    try {
      const applied = appliedMappingFile(headers, await chosen.text(), chosen.name)
      mapping.value = applied.columns
      settings.value = applied.settings
      fromFile.value = { name: chosen.name, columns: applied.named }
      notice.value = applied.notice
    } catch (error) {
      failure.value = `“${chosen.name}” cannot be used as a mapping file: ${messageOf(error)}`
    }
  }

  function save() {
    const headers = analysis.value?.headers ?? []
    saveMapping(headers.map((header, i) => ({ header, path: mapping.value[i] ?? null })))
    notice.value = 'Mapping saved: files with these headers will be mapped this way next time.'
  }

  return {
    mapping,
    settings,
    fromFile,
    readAsWritten,
    start,
    setField,
    takeField,
    sheetMapping,
    saveMappingFile,
    loadMappingFile,
    save,
  }
}

export type ColumnMapping = ReturnType<typeof useColumnMapping>

/**
 * A mapping file's text applied to these headers: its columns by header (headers it does not name
 * matched as usual) and its settings, the columns it named, and what the person is told of it.
 */
function appliedMappingFile(headers: string[], text: string, name: string) {
  const parsed = parseMappingFile(text)
  const { columns, ...settings } = applyMappingFile(
    headers,
    parsed,
    matchOptionsOf(productLayout(headers)),
  ).mapping
  const named = new Set(Object.keys(parsed.columns))
  const unnamed = headers.filter((header) => header.trim() && !named.has(header)).length
  return {
    columns,
    settings,
    named: new Set(headers.flatMap((header, i) => (named.has(header) ? [i] : []))),
    notice:
      `Mapping file “${name}” applied.` +
      (unnamed
        ? ` It does not name ${unnamed === 1 ? 'one column' : `${unnamed} columns`}: matched as usual.`
        : ''),
  }
}
