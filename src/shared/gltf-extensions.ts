/**
 * The glTF extensions the AR preview shows (three.js's GLTFLoader with the decoders the app
 * bundles: Draco, meshopt, and Basis run by main), and the words a person reads for the ones that need a decoder. One list
 * for the preview, which names the decoders a model used, and for the asset checks, which flag a
 * model needing an extension not here (the preview would show it wrongly or not at all).
 */

/** Extensions that need a decoder the preview loads only when a model uses them. */
export const DECODED_EXTENSIONS = {
  KHR_draco_mesh_compression: 'Draco',
  EXT_meshopt_compression: 'meshopt',
  KHR_meshopt_compression: 'meshopt',
  KHR_texture_basisu: 'KTX2 (Basis)',
  EXT_texture_webp: 'WebP',
  EXT_texture_avif: 'AVIF',
} as const satisfies Record<string, string>

/** Every extension GLTFLoader (three 0.187) reads, decoded ones included. */
export const PREVIEW_EXTENSIONS: ReadonlySet<string> = new Set([
  ...Object.keys(DECODED_EXTENSIONS),
  'KHR_lights_punctual',
  'KHR_materials_anisotropy',
  'KHR_materials_clearcoat',
  'KHR_materials_diffuse_roughness',
  'KHR_materials_dispersion',
  'KHR_materials_emissive_strength',
  'KHR_materials_ior',
  'KHR_materials_iridescence',
  'KHR_materials_sheen',
  'KHR_materials_specular',
  'KHR_materials_transmission',
  'KHR_materials_unlit',
  'KHR_materials_volume',
  'KHR_mesh_quantization',
  'KHR_texture_transform',
  'EXT_materials_bump',
  'EXT_mesh_gpu_instancing',
])

/** The extensions of `names` the preview cannot show, in their order. */
export function unshownExtensions(names: readonly string[]): string[] {
  return names.filter((name) => !PREVIEW_EXTENSIONS.has(name))
}
