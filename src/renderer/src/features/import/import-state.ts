import { computed, ref, shallowRef } from 'vue'
import type { Analysis, ReadProgress } from './import-protocol.ts'

/** The import's screens, in order. */
export type Step = 'choose' | 'reading' | 'mapping' | 'checking' | 'report' | 'importing' | 'done'

export const noProgress = (): ReadProgress => ({ rows: 0, bytes: 0, total: 0 })

/**
 * What every step of the import reads and moves: the screen shown, the file, what its analysis
 * found, the progress bar and the two lines that tell the person what happened. Held apart so
 * that the mapping, the dry run and the run (use-import.ts composes them) each take this one
 * state instead of a dozen refs.
 */
export function importState() {
  const step = ref<Step>('choose')
  const file = shallowRef<File>()
  /** PrestaShop's combinations file, read with `file` (its products file) as one sheet. */
  const combinations = shallowRef<File>()
  const analysis = shallowRef<Analysis>()
  const progress = shallowRef<ReadProgress>(noProgress())
  /** Why the last step did not go through (shown as an alert). */
  const failure = ref('')
  /** What just happened, said politely ("Mapping saved", "Import cancelled"). */
  const notice = ref('')

  /** The file's name, or both names for PrestaShop's pair. */
  const fileNames = computed(() =>
    combinations.value ? `${file.value?.name} with ${combinations.value.name}` : (file.value?.name ?? ''),
  )
  /** A JSON file of SKUs, which needs no mapping (a JSON product list is mapped as a sheet is). */
  const isJson = computed(() => analysis.value?.documentKind !== undefined)

  /** The progress bar at its start, over the bytes the import reads: both files of a pair. */
  function startProgress() {
    progress.value = { ...noProgress(), total: (file.value?.size ?? 0) + (combinations.value?.size ?? 0) }
  }

  /** Both lines cleared, as each step begins. */
  function clearMessages() {
    failure.value = notice.value = ''
  }

  return {
    step,
    file,
    combinations,
    analysis,
    progress,
    failure,
    notice,
    fileNames,
    isJson,
    startProgress,
    clearMessages,
  }
}

export type ImportState = ReturnType<typeof importState>
