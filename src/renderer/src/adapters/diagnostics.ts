/** Main's log and the diagnostics (Settings › Logs and diagnostics). */
export const logsInMain = {
  /** Opens the folder of main's log in the system's file manager. */
  openFolder: (): Promise<void> => window.api.openLogsFolder(),
  /** Versions, system, folders, profiles' addresses and the log's last problems: never a token. */
  diagnostics: (): Promise<string> => window.api.getDiagnostics(),
}
