/** A size as a person reads it: 50 MB, 1.5 KB, 10 bytes. */
export function formatBytes(bytes: number): string {
  const MiB = 1024 * 1024
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MB`
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`
  return `${bytes} bytes`
}
