/**
 * The Khronos glTF-Validator's npm package (compiled from Dart, no types of its own), as its
 * README documents it. The report is `unknown` here: gltf-report.ts reads it defensively.
 */
declare module 'gltf-validator' {
  export interface ValidationOptions {
    /** Copied to the report. */
    uri?: string
    /** Skips detecting the format from the first byte. */
    format?: 'glb' | 'gltf'
    /** Loads a buffer or image the asset names by a URI other than a data: URI; rejecting fails that resource. */
    externalResourceFunction?: (uri: string) => Promise<Uint8Array>
    writeTimestamp?: boolean
    /** 0 for no limit. */
    maxIssues?: number
    ignoredIssues?: string[]
    severityOverrides?: Record<string, number>
  }
  /** Rejects (with a string) when the bytes are neither glTF JSON nor GLB. */
  export function validateBytes(data: Uint8Array, options?: ValidationOptions): Promise<unknown>
  export function version(): string
  export function supportedExtensions(): string[]
}
