import { type Transferable, Worker } from 'node:worker_threads'
import { messageOf } from '#shared/error-message.ts'
import { counted } from '#shared/counted.ts'

/**
 * A worker thread that runs jobs for main, and is replaced when it fails or a job overruns: what
 * the KTX2 transcoder's thread (ktx2-transcoder-thread.ts) and the glTF-Validator's
 * (asset-checks/model-inspection-thread.ts) have in common. Each keeps its own messages, budgets
 * and words.
 *
 * - The worker's file is resolved, and the thread started, on the first job; a file that could not
 *   be resolved is asked for again by the next job.
 * - Each job has `timeoutMs` on the thread, counted from the worker's `{ type: 'ready' }` (its
 *   modules loaded, which is not the job's time) and not while the job is paused. A job past its
 *   time ends the thread: that is the only way to stop WebAssembly, or a validator, at work.
 * - A thread that stops (crashed, out of memory, ended itself, overran, closed) fails every job it
 *   had, each with the caller's words for why, and is never heard from again; the next job starts a
 *   new thread. The reasons are worded here, but for those each caller puts its own way (`words`).
 * - The thread keeps the process alive while it has jobs, like any work under way, and not while
 *   idle. Idle for `idleMs`, when given, it is ended.
 */
export interface WorkerThread<ToWorker, FromWorker> {
  /** Runs a job on the thread, starting one if none runs; settles as the job's `receive` says. */
  run<Result>(job: ThreadJob<ToWorker, FromWorker, Result>): Promise<Result>
  /** Ends the thread (its jobs fail, `closed`); the next job starts another. */
  close(): Promise<void>
}

export interface WorkerThreadOptions {
  /** The thread's name, as debuggers and `process.report` show it. */
  name: string
  /** The worker's module. */
  file(): string | URL | Promise<string | URL>
  /** How long a job may have the thread. */
  timeoutMs: number
  /** How long an idle thread is kept before it is ended; kept for good without it. */
  idleMs?: number
  /** What a job fails with when the worker's file could not be resolved or the thread started. */
  unstarted(error: unknown): Error
  /** What the job `job` fails with when its thread stops, `why` in words. */
  stopped(why: string, job: number): Error
  /** The caller's words for some of the reasons. */
  words: StopWords
}

/** The words for why a thread stopped that each caller puts its own way. */
export interface StopWords {
  /** It threw `message` and did not catch it. */
  failed(message: string): string
  /** It ended itself with exit code `code`. */
  exited(code: number): string
  /** The job `overran` took longer than `limit` (the time a job has, in seconds), said to the job `job`. */
  overran(limit: string, overran: number, job: number): string
}

/** Why a thread stopped. */
type ThreadStop =
  /** A message from it could not be read. */
  | { type: 'unreadable' }
  | { type: 'out-of-memory' }
  /** An error it did not catch. */
  | { type: 'failed'; error: Error }
  /** It ended itself. */
  | { type: 'exited'; code: number }
  /** The job `job` took longer than its time. */
  | { type: 'overran'; job: number }
  /** `close()`, or idle for `idleMs`. */
  | { type: 'closed' }

/** The messages a worker sends: `ready` once, then each about a job, by its id. */
type WorkerMessage = { type: 'ready' } | { type: string; job: number }

export interface ThreadJob<ToWorker, FromWorker, Result> {
  /** The message that gives the worker the job, known by `id`. */
  message(id: number): ToWorker
  /** What that message hands over rather than copies. */
  transfer?: readonly Transferable[]
  /** A message from the worker about this job: it settles the job, or asks something of main. */
  receive(message: Exclude<FromWorker, { type: 'ready' }>, job: RunningJob<ToWorker, Result>): void
}

/**
 * A job on the thread, for its `receive`. Once it is settled, or its thread stopped, each of these
 * does nothing.
 */
export interface RunningJob<ToWorker, Result> {
  resolve(result: Result): void
  reject(error: Error): void
  /** Stops the job's clock: main is doing something for it (fetching a file), which is not its time. */
  pause(): void
  resume(): void
  /** Answers the worker about this job. */
  post(message: ToWorker, transfer?: readonly Transferable[]): void
}

interface Running {
  worker: Worker
  jobs: Map<number, { clock: Clock; receive(message: unknown): void; fail(error: Error): void }>
  /** The worker's modules loaded: its jobs' clocks run from then. */
  ready: boolean
  stopped: boolean
}

export function createWorkerThread<ToWorker, FromWorker extends WorkerMessage>(
  options: WorkerThreadOptions,
): WorkerThread<ToWorker, FromWorker> {
  let file: Promise<string | URL> | undefined
  let current: Running | undefined
  let idle: NodeJS.Timeout | undefined
  let ids = 0
  const limit = counted(options.timeoutMs / 1000, 'second')

  function inWords(why: ThreadStop, job: number): string {
    switch (why.type) {
      case 'unreadable':
        return 'a message from it could not be read'
      case 'out-of-memory':
        return 'it ran out of memory'
      case 'failed':
        return options.words.failed(messageOf(why.error))
      case 'exited':
        return options.words.exited(why.code)
      case 'overran':
        return options.words.overran(limit, why.job, job)
      case 'closed':
        return 'it was closed'
    }
  }

  async function thread(): Promise<Running> {
    file ??= Promise.resolve()
      .then(options.file)
      .catch((error: unknown) => {
        file = undefined
        throw error
      })
    const path = await file
    current ??= spawn(path)
    return current
  }

  function spawn(path: string | URL): Running {
    const worker = new Worker(path, { name: options.name })
    const self: Running = { worker, jobs: new Map(), ready: false, stopped: false }
    worker.unref()
    worker.on('message', (message: FromWorker) => receive(self, message))
    worker.on('messageerror', () => stop(self, { type: 'unreadable' }))
    worker.on('error', (error: Error & { code?: string }) =>
      stop(
        self,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { type: 'out-of-memory' } : { type: 'failed', error },
      ),
    )
    // After an 'error' this changes nothing; alone, the worker ended itself (process.exit).
    worker.on('exit', (code) => stop(self, { type: 'exited', code }))
    return self
  }

  /** Ends the thread, failing each job it had with the words for `why`. */
  function stop(self: Running, why: ThreadStop): Promise<number> | undefined {
    if (self.stopped) return undefined
    self.stopped = true
    if (current === self) {
      current = undefined
      clearTimeout(idle)
    }
    const jobs = [...self.jobs]
    self.jobs.clear()
    for (const [id, job] of jobs) {
      job.clock.stop()
      job.fail(options.stopped(inWords(why, id), id))
    }
    return self.worker.terminate()
  }

  function receive(self: Running, message: FromWorker) {
    // A thread already ended may still have spoken: its jobs have failed, the next are elsewhere.
    if (self.stopped) return
    if (message.type === 'ready') {
      self.ready = true
      for (const job of self.jobs.values()) job.clock.resume()
    } else if ('job' in message) {
      self.jobs.get(message.job)?.receive(message)
    }
  }

  /** Idle, the thread keeps no process alive, and is ended after `idleMs`. */
  function rest(self: Running) {
    self.worker.unref()
    if (options.idleMs === undefined) return
    clearTimeout(idle)
    idle = setTimeout(() => {
      if (self.jobs.size === 0) void stop(self, { type: 'closed' })
    }, options.idleMs)
    idle.unref()
  }

  async function run<Result>(job: ThreadJob<ToWorker, FromWorker, Result>): Promise<Result> {
    let self: Running
    try {
      // A thread closed while this one was being started is not the one to use.
      do self = await thread()
      while (self.stopped)
    } catch (error) {
      throw options.unstarted(error)
    }
    clearTimeout(idle)
    const id = ids++
    return new Promise<Result>((resolve, reject) => {
      const clock = startClock(
        options.timeoutMs,
        () => void stop(self, { type: 'overran', job: id }),
        self.ready,
      )
      const entry = {
        clock,
        receive: (message: unknown) =>
          job.receive(message as Exclude<FromWorker, { type: 'ready' }>, running),
        fail: reject,
      }
      const inFlight = () => self.jobs.get(id) === entry
      const finish = () => {
        if (!inFlight()) return false
        self.jobs.delete(id)
        clock.stop()
        if (self.jobs.size === 0) rest(self)
        return true
      }
      const running: RunningJob<ToWorker, Result> = {
        resolve(result) {
          if (finish()) resolve(result)
        },
        reject(error) {
          if (finish()) reject(error)
        },
        pause() {
          if (inFlight()) clock.pause()
        },
        resume() {
          if (inFlight()) clock.resume()
        },
        post(message, transfer) {
          if (inFlight()) self.worker.postMessage(message, transfer)
        },
      }
      self.jobs.set(id, entry)
      // Busy, the thread keeps the process alive like any work under way.
      self.worker.ref()
      try {
        self.worker.postMessage(job.message(id), job.transfer)
      } catch (error) {
        running.reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
  }

  return {
    run,
    async close() {
      clearTimeout(idle)
      if (current) await stop(current, { type: 'closed' })
    },
  }
}

interface Clock {
  pause(): void
  resume(): void
  stop(): void
}

/**
 * Calls `expire` once `ms` have run, not counting the time between a pause and a resume; started
 * paused unless `running`.
 */
function startClock(ms: number, expire: () => void, running: boolean): Clock {
  let left = ms
  let since = 0
  let timer: NodeJS.Timeout | undefined
  const resume = () => {
    if (timer !== undefined) return
    since = performance.now()
    timer = setTimeout(expire, Math.max(0, left))
    // The worker, busy, keeps the process alive; the clock needs not.
    timer.unref()
  }
  const stop = () => {
    clearTimeout(timer)
    timer = undefined
  }
  if (running) resume()
  return {
    pause() {
      if (timer === undefined) return
      stop()
      left -= performance.now() - since
    },
    resume,
    stop,
  }
}
