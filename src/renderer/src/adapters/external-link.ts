/** Opens an https link in the person's browser (main refuses any other scheme). */
export function openInBrowser(url: string): Promise<void> {
  return window.api.openExternal(url)
}
