/**
 * Hands a file to the browser's download (in Electron, the save dialog). A blob: link is a
 * navigation the CSP allows; the address is released once the download has started.
 */
export function download(file: File): void {
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = file.name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
