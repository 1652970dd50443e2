/**
 * Runs tasks one after another per key (and concurrently across keys), in the order they were
 * queued: a `clear` that follows a `set` of the same token cannot finish first, and each
 * read-modify-write of a file sees the result of the one before.
 */
export function createKeyedQueue() {
  const tails = new Map<string, Promise<unknown>>()

  return function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve()
    const result = previous.then(task, task)
    const tail = result.catch(() => {})
    tails.set(key, tail)
    // Forget settled keys so the map does not grow with every profile ever touched.
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key)
    })
    return result
  }
}
