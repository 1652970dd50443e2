/**
 * Resolves in a task of its own, after what the browser has waiting (a frame, when one is due):
 * the work awaited after it is no longer part of the task that asked. A message posted to itself,
 * which no timer's clamping delays.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}
