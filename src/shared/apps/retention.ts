/**
 * Image retention (`expire_images_after_days`) as the console offers it: None, 1 year, 3 years,
 * or any number of days. The contract gives neither bounds nor a default, nor what 0 means; the
 * product reads the console's "None" as 0 days (analysis images are not kept) and says so.
 */
export const RETENTION_PRESETS = [
  { key: 'none', label: 'None', days: 0 },
  { key: 'year', label: '1 year', days: 365 },
  { key: 'three-years', label: '3 years', days: 1095 },
] as const

export type RetentionChoice = (typeof RETENTION_PRESETS)[number]['key'] | 'custom'

/** Which choice a stored value stands for; anything but a preset's days is a custom number. */
export function retentionChoice(days: unknown): RetentionChoice {
  return RETENTION_PRESETS.find((preset) => preset.days === days)?.key ?? 'custom'
}

/** "365 days (1 year)", "0 days (None: images are not kept)", "30 days". */
export function describeRetention(days: unknown): string {
  if (typeof days !== 'number') return 'Not set'
  const preset = RETENTION_PRESETS.find((entry) => entry.days === days)
  const count = `${days} day${days === 1 ? '' : 's'}`
  if (!preset) return count
  return preset.key === 'none' ? `${count} (None: images are not kept)` : `${count} (${preset.label})`
}
