/**
 * Runs tasks one at a time, in the order they were queued: each read-modify-write of the profiles
 * file sees the result of the one before, so concurrent saves neither interleave nor lose one.
 */
export function createSerialQueue() {
  let tail: Promise<unknown> = Promise.resolve()

  return function run<T>(task: () => Promise<T>): Promise<T> {
    const result = tail.then(task, task)
    tail = result.catch(() => {})
    return result
  }
}
