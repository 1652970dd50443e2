import { getAt } from '../json-path.ts'
import { describeRetention } from './retention.ts'

/** One line of what an app request will create: "Image retention: 365 days (1 year)". */
export interface SummaryLine {
  label: string
  value: string
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : 'Not set')

/** The keys of an object of booleans that are on, "acne, pores", or what the object holds. */
function switchedOn(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'Not set'
  const entries = Object.entries(value)
  const on = entries.filter(([, flag]) => flag === true).map(([key]) => key.replaceAll('_', ' '))
  return `${on.length} of ${entries.length} on${on.length ? `: ${on.join(', ')}` : ''}`
}

function list(value: unknown, empty: string): string {
  if (!Array.isArray(value)) return 'Not set'
  if (!value.length) return empty
  return value.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry))).join(', ')
}

/**
 * The settings of an app request worth reading before it is created (the service keeps them; a
 * second request makes a second app): name, status, versions, retention, concerns, theme,
 * languages and allowed domains. The whole request is shown beside it as JSON.
 */
export function appCreateSummary(payload: unknown): SummaryLine[] {
  const at = (...path: string[]) => getAt(payload, path)
  const theme = ['appConfig', 'ui_config', 'appearance', 'theme']
  const colours = ['primaryColor', 'iconColor', 'selectionColor']
    .map((key) => at(...theme, 'configuration', key))
    .filter((value) => typeof value === 'string' && value)
  const scheme = at(...theme, 'configuration', 'theme')
  return [
    { label: 'App name', value: text(at('name')) },
    { label: 'Status', value: text(at('status')) },
    {
      label: 'Versions',
      value: `SDK ${text(at('sdkVersion'))}, algorithm ${text(at('algorithmVersion'))}`,
    },
    { label: 'Image retention', value: describeRetention(at('expire_images_after_days')) },
    { label: 'Skin concerns', value: switchedOn(at('report_config', 'skinConcerns', 'concerns')) },
    {
      label: 'Theme',
      value: `${text(scheme)}${colours.length ? `; colours ${colours.join(', ')}` : ''}`,
    },
    { label: 'Languages', value: list(at('appConfig', 'ui_config', 'general', 'languages'), 'None') },
    { label: 'Allowed domains', value: list(at('appConfig', 'domains'), 'Any (none listed)') },
  ]
}
