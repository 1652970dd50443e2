import type { Sku } from '#shared/schema/sku.ts'
import { fieldOfViewFor, type FieldOfViewChoice } from './field-of-view.ts'
import { toneMappingFor, type ToneMappingChoice } from './tone-mapping.ts'
import type { Vector3Like } from '#shared/try-on/fit.ts'

/**
 * What the preview takes from a SKU draft, read defensively: a draft may hold anything (a number
 * field holding text, a missing section), and the preview shows what it can and says what it did.
 * Plain data, no three.js objects, so each part can be watched on its own.
 */

// The one vector type, shared with the try-on's placement (src/shared/try-on/fit.ts).
export type { Vector3Like }

/** "X 0.01 m, Y 0 m, Z 0 m": a position or rotation as the previews' captions say it. */
export function vectorText(value: Vector3Like, unit: string): string {
  return `X ${value.x}${unit}, Y ${value.y}${unit}, Z ${value.z}${unit}`
}

export interface ModelSource {
  /** The first 3D asset's address, trimmed; undefined when the SKU has none. */
  url?: string
  /** The asset's id, to name it in the caption. */
  id?: string
}

export type EnvironmentSource = { source: 'default'; reason: string } | { source: 'image'; url: string }

export interface ShadowSettings {
  /** Opacity of the ground shadow: 0 is none (the new-SKU default), 1 is full. */
  intensity: number
  /** 0 is a crisp contact shadow, 1 a wide soft one. */
  softness: number
}

/** What the caption lists, beside what the scene shows. */
export interface SettingNotes {
  notes: string[]
}

/** Where a number field cannot be used as it is: the value the preview uses, and why. */
function numberAt(value: unknown, fallback: number, label: string, notes: string[]): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (value !== undefined) notes.push(`${label} is not a number; the preview uses ${fallback}.`)
  return fallback
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

function arEffect(payload: Sku) {
  const effect = record(payload.arEffect)
  const transform = record(effect.transform)
  return {
    effect,
    position: record(transform.position),
    rotation: record(transform.rotation),
    env: record(effect.envSettings),
  }
}

export function modelSource(payload: Sku): ModelSource {
  const assets = arEffect(payload).effect.effectAssets3D
  const first = Array.isArray(assets) ? record(assets[0]) : {}
  const url = typeof first.url === 'string' ? first.url.trim() : ''
  const id = typeof first.id === 'string' && first.id.trim() ? first.id.trim() : undefined
  return url ? { url, id } : { id }
}

/** Position in scene units (metres); rotation in degrees, as the field help says. */
export function transformOf(payload: Sku): { position: Vector3Like; rotation: Vector3Like } & SettingNotes {
  const { position, rotation } = arEffect(payload)
  const notes: string[] = []
  const vector = (source: Record<string, unknown>, title: string): Vector3Like => ({
    x: numberAt(source.x, 0, `${title} X`, notes),
    y: numberAt(source.y, 0, `${title} Y`, notes),
    z: numberAt(source.z, 0, `${title} Z`, notes),
  })
  return { position: vector(position, 'Position'), rotation: vector(rotation, 'Rotation'), notes }
}

export function toneMappingOf(payload: Sku): ToneMappingChoice {
  return toneMappingFor(arEffect(payload).env.toneMapping)
}

export function fieldOfViewOf(payload: Sku): FieldOfViewChoice {
  return fieldOfViewFor(arEffect(payload).env.fieldOfView)
}

/** Brightness of the environment lighting; 1 is the environment as it is. */
export function intensityOf(payload: Sku): { value: number } & SettingNotes {
  const notes: string[] = []
  const value = numberAt(arEffect(payload).env.intensity, 1, 'Intensity', notes)
  if (value < 0) {
    notes.push(`Intensity ${value} is below 0; the preview uses 0.`)
    return { value: 0, notes }
  }
  return { value, notes }
}

export function shadowOf(payload: Sku): ShadowSettings & SettingNotes {
  const { env } = arEffect(payload)
  const notes: string[] = []
  const intensity = numberAt(env.shadowIntensity, 0, 'Shadow intensity', notes)
  const softness = numberAt(env.shadowSoftness, 1, 'Shadow softness', notes)
  const unit = (value: number, label: string) => {
    const clamped = Math.min(1, Math.max(0, value))
    if (clamped !== value) notes.push(`${label} ${value} is outside 0–1; the preview shows ${clamped}.`)
    return clamped
  }
  return {
    intensity: unit(intensity, 'Shadow intensity'),
    softness: unit(softness, 'Shadow softness'),
    notes,
  }
}

export function environmentOf(payload: Sku): EnvironmentSource {
  const { env } = arEffect(payload)
  const image = typeof env.environmentImage === 'string' ? env.environmentImage.trim() : ''
  if (env.useDefaultEnvironment === true) {
    return {
      source: 'default',
      reason: image
        ? '“Use default environment” is Yes, so the environment image is not used'
        : '“Use default environment” is Yes',
    }
  }
  if (image) return { source: 'image', url: image }
  return { source: 'default', reason: 'the SKU has no environment image' }
}

/**
 * Tile X and Y: the contract names them and says nothing of what they do, so the preview shows
 * their values and gives them no visual meaning rather than guess one.
 */
export function tilesOf(payload: Sku): { x: unknown; y: unknown } {
  const { env } = arEffect(payload)
  return { x: env.tileX, y: env.tileY }
}

/** http(s) only: anything else would be refused by main, so it is said here without asking. */
export function isWebAddress(value: string): boolean {
  const url = URL.parse(value)
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:')
}
