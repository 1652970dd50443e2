import type { SheetMapping } from '#shared/sheet/mapping.ts'
import type {
  Analysis,
  DryRunGates,
  DryRunReport,
  ImportRequest,
  ImportResponse,
  ReadProgress,
  RunOptions,
  SavedMapping,
  WrittenChunk,
} from './import-protocol.ts'

/** A job ended by `cancel()`: nothing to report to the user as a failure. */
export class ImportCancelled extends Error {
  override name = 'ImportCancelled'
}

type Handler = (message: ImportResponse) => void

/**
 * The page's side of the import worker: one job at a time, each a promise. The worker is a real
 * file of the app (the CSP allows scripts from 'self' only, so never a blob: worker).
 */
export class ImportClient {
  private readonly worker: Worker
  private job = 0
  private handler: Handler | undefined
  private fail: ((error: Error) => void) | undefined

  constructor() {
    this.worker = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module' })
    this.worker.addEventListener('message', (event: MessageEvent<ImportResponse>) => {
      if (event.data.job === this.job) this.handler?.(event.data)
    })
    this.worker.addEventListener('error', (event) => {
      event.preventDefault()
      this.fail?.(new Error(`The importer stopped: ${event.message || 'its worker could not run'}.`))
    })
  }

  /** `combinations`: PrestaShop's combinations file, read with `file` (see ImportRequest). */
  analyse(file: File, saved: SavedMapping, combinations?: File): Promise<Analysis> {
    return this.start(
      { type: 'analyse', file, saved, ...(combinations && { combinations }) },
      (message, resolve) => {
        if (message.type === 'analysed') resolve(message.analysis)
      },
    )
  }

  dryRun(
    file: File,
    mapping: SheetMapping,
    gates: DryRunGates,
    onProgress: (progress: ReadProgress) => void,
    combinations?: File,
  ): Promise<DryRunReport> {
    return this.start(
      { type: 'dry-run', file, mapping, gates, ...(combinations && { combinations }) },
      (message, resolve) => {
        if (message.type === 'progress') onProgress(message.progress)
        else if (message.type === 'report') resolve(message.report)
      },
    )
  }

  /**
   * Imports the file: the worker reads, converts and writes it. `begun` is called with the
   * import's undo batch before anything is written (the worker waits for it to return), then
   * `written` after each chunk commits. A cancelled or failed run settles only once the worker has
   * stopped writing, so the caller can roll back everything that was written.
   */
  run(
    file: File,
    mapping: SheetMapping,
    options: RunOptions,
    begun: (batch: string) => void,
    written: (chunk: WrittenChunk) => void,
    combinations?: File,
  ): Promise<ReadProgress> {
    const job = this.job + 1
    const request = { type: 'run' as const, file, mapping, options, ...(combinations && { combinations }) }
    return this.start<ReadProgress>(request, (message, resolve, reject) => {
      if (message.type === 'begun') {
        try {
          begun(message.batch)
          this.post({ type: 'noted', job })
        } catch (error) {
          this.post({ type: 'cancel', job })
          reject(error instanceof Error ? error : new Error(String(error)))
        }
      } else if (message.type === 'written') written(message)
      else if (message.type === 'done') resolve(message.progress)
    })
  }

  /** Ends the job under way; its promise rejects with `ImportCancelled`. */
  cancel(): void {
    this.post({ type: 'cancel', job: this.job })
  }

  dispose(): void {
    this.cancel()
    this.worker.terminate()
  }

  private post(request: ImportRequest) {
    this.worker.postMessage(request)
  }

  private start<T>(
    request: DistributiveOmit<ImportRequest, 'job'>,
    handle: (message: ImportResponse, resolve: (value: T) => void, reject: (error: Error) => void) => void,
  ): Promise<T> {
    // A job still under way is replaced: its promise ends as cancelled.
    this.fail?.(new ImportCancelled('Replaced by another job'))
    const job = ++this.job
    return new Promise<T>((resolve, reject) => {
      let done = false
      const finish = () => {
        done = true
        this.handler = undefined
        this.fail = undefined
      }
      const ok = (value: T) => {
        if (done) return
        finish()
        resolve(value)
      }
      const ko = (error: Error) => {
        if (done) return
        finish()
        reject(error)
      }
      this.fail = ko
      this.handler = (message) => {
        if (message.type === 'cancelled') ko(new ImportCancelled('Cancelled'))
        else if (message.type === 'failed') ko(new Error(message.message))
        else handle(message, ok, ko)
      }
      this.post({ ...request, job } as ImportRequest)
    })
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
