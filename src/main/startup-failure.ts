import { messageOf } from '#shared/error-message.ts'

/**
 * What the dialog says when the app cannot start: the reason, and where to look. The app keeps no
 * log file of its own; its folder holds the files it reads at start, and the reason is also
 * written to the terminal it was started from.
 */
export function startupFailure(error: unknown, dataDir: string): { title: string; content: string } {
  return {
    title: 'Catalog Desk could not start',
    content: [
      messageOf(error),
      '',
      `The app's files (profiles, settings, the sandbox's store) are in ${dataDir}.`,
      'Started from a terminal, the app writes the details there too.',
    ].join('\n'),
  }
}
