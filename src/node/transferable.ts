import { isMarkedAsUntransferable } from 'node:worker_threads'

/**
 * The bytes in an ArrayBuffer that can be transferred to a worker: their own when they fill it
 * (the guarded fetcher's always do), else a copy of just them (a view into a larger buffer, Node's
 * pool included, would otherwise hand over, or copy, the whole of it).
 */
export function transferable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const { buffer } = bytes
  const whole =
    buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength &&
    !isMarkedAsUntransferable(buffer)
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice()
}
