/** Puts text on the system clipboard, through main: the page has no clipboard permission. */
export function copyText(text: string): Promise<void> {
  return window.api.writeClipboard(text)
}
