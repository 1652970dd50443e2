import { afterEach, describe, expect, it, vi } from 'vitest'
import { messageOf } from '#shared/error-message.ts'
import { createWorkerThread, type WorkerThread, type WorkerThreadOptions } from '#node/worker-thread.ts'
import type { Act, FromWorker, ToWorker } from './scripted-worker.ts'

// The worker thread both of main's supervisors run their jobs on (the KTX2 transcoder's and the
// glTF-Validator's), with a real worker that does what each job says: one thread for the jobs
// until it fails or a job overruns, then a new one; every job it had failed in the caller's words.

const SCRIPTED = new URL('./scripted-worker.ts', import.meta.url)
const SLOW_TO_START = new URL('./slow-scripted-worker.ts', import.meta.url)

let threads: WorkerThread<ToWorker, FromWorker>[] = []
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(threads.map((thread) => thread.close()))
  threads = []
})

function start(options: Partial<WorkerThreadOptions> = {}) {
  const thread = createWorkerThread<ToWorker, FromWorker>({
    name: 'scripted',
    file: () => SCRIPTED,
    timeoutMs: 10_000,
    unstarted: (error) => new Error(`could not start: ${messageOf(error)}`),
    stopped: (why, job) => new Error(`job ${job}: the thread stopped, ${why}`),
    words: {
      failed: (message) => `it failed (${message})`,
      exited: (code) => `it ended itself, exit code ${code}`,
      overran: (limit, overran) => `job ${overran} took longer than ${limit}`,
    },
    ...options,
  })
  threads.push(thread)
  return thread
}

/**
 * Runs a job that does `act`; resolves with the thread it ran on. What the job asks main is noted
 * (`asked`) and answered once `answer()` settles, at once unless told, its clock paused meanwhile.
 */
function run(
  thread: WorkerThread<ToWorker, FromWorker>,
  act: Act,
  { asked = () => {}, answer = async () => {} }: { asked?: () => void; answer?: () => Promise<void> } = {},
) {
  return thread.run<number>({
    message: (job) => ({ type: 'job', job, act }),
    receive(message, job) {
      if (message.type === 'done') return job.resolve(message.thread)
      asked()
      job.pause()
      void answer().then(() => {
        job.resume()
        job.post({ type: 'answer', job: message.job, answer: 'yes' })
      })
    },
  })
}

/** A promise and the function that settles it. */
function deferred() {
  let settle!: () => void
  const settled = new Promise<void>((resolve) => (settle = resolve))
  return { settled, settle }
}

describe('a worker thread', () => {
  it('runs jobs, one after another or at once, on one thread started on the first, its file asked for once', async () => {
    const file = vi.fn(() => SCRIPTED)
    const thread = start({ file })
    const first = await run(thread, 'done')
    const together = await Promise.all([run(thread, 'done'), run(thread, 'ask'), run(thread, 'done')])
    expect(together).toEqual([first, first, first])
    expect(file).toHaveBeenCalledTimes(1)
  })

  it('a file that could not be found fails the job in the caller’s words, and is asked for again by the next', async () => {
    const file = vi
      .fn<() => Promise<URL>>()
      .mockRejectedValueOnce(new Error('no such file'))
      .mockResolvedValue(SCRIPTED)
    const thread = start({ file })
    await expect(run(thread, 'done')).rejects.toThrow('could not start: no such file')
    await expect(run(thread, 'done')).resolves.toEqual(expect.any(Number))
    expect(file).toHaveBeenCalledTimes(2)
  })
})

describe('a thread that stops', () => {
  it('a job past its time ends the thread: it fails, so does the job beside it, naming the one that overran; the next job gets a new thread', async () => {
    // A limit no sound job comes near, even on a loaded machine.
    const thread = start({ timeoutMs: 2_000 })
    const before = await run(thread, 'done')
    const hung = run(thread, 'hang')
    const beside = run(thread, 'wait')
    await Promise.all([
      expect(hung).rejects.toThrow('job 1: the thread stopped, job 1 took longer than 2 seconds'),
      expect(beside).rejects.toThrow('job 2: the thread stopped, job 1 took longer than 2 seconds'),
    ])
    const after = await run(thread, 'done')
    expect(after).not.toBe(before)
  })

  it('the clock runs from the worker’s ready, not from its start, and stops while the job waits on main', async () => {
    const thread = start({ file: () => SLOW_TO_START, timeoutMs: 1_000 })
    // 1.2 s to start, 1.2 s waiting on main: each over the 1 s a job has, if it counted; the job's
    // own work, a few messages, keeps far within it even on a loaded machine.
    const answer = () => new Promise<void>((resolve) => setTimeout(resolve, 1_200))
    await expect(run(thread, 'ask', { answer })).resolves.toEqual(expect.any(Number))
  })

  it.each([
    ['throws', 'throw', 'job 0: the thread stopped, it failed (a fault of the kind a bug would be)'],
    ['ends itself', 'exit', 'job 0: the thread stopped, it ended itself, exit code 3'],
  ] as const)('%s: its job fails saying so, and the next job gets a new thread', async (_, act, words) => {
    const thread = start()
    await expect(run(thread, act)).rejects.toThrow(words)
    await expect(run(thread, 'done')).resolves.toEqual(expect.any(Number))
  })

  it('closed: its jobs fail saying so; the next job gets a new thread', async () => {
    const thread = start()
    const before = await run(thread, 'done')
    const onThread = deferred()
    const waiting = run(thread, 'ask', { asked: onThread.settle, answer: () => new Promise(() => {}) })
    await onThread.settled
    await Promise.all([
      expect(waiting).rejects.toThrow('job 1: the thread stopped, it was closed'),
      thread.close(),
    ])
    expect(await run(thread, 'done')).not.toBe(before)
  })

  it('idle for its time, the thread is ended; busy, it is not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const thread = start({ idleMs: 1_000 })
    const first = await run(thread, 'done')
    vi.advanceTimersByTime(999)
    expect(await run(thread, 'done')).toBe(first)
    // A job under way for longer than that: the thread is kept.
    const onThread = deferred()
    const answered = deferred()
    const waiting = run(thread, 'ask', { asked: onThread.settle, answer: () => answered.settled })
    await onThread.settled
    vi.advanceTimersByTime(5_000)
    answered.settle()
    expect(await waiting).toBe(first)
    vi.advanceTimersByTime(1_000)
    expect(await run(thread, 'done')).not.toBe(first)
  })
})
