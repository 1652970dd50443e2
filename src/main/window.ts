import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron'

export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    title: 'Catalog Desk',
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    // Shown on ready-to-show, so the user never sees an empty white frame.
    show: false,
    // The renderer's --bg, so the first paint does not flash.
    backgroundColor: '#f6f7f9',
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    },
  }
}

export function createMainWindow(preloadPath: string): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath))
  window.once('ready-to-show', () => window.show())
  return window
}
