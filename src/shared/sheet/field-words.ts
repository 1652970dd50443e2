import type { FieldPath } from './types.ts'

/**
 * The words catalogue people and their shop systems use for the contract's fields, beyond the
 * catalogue's own titles: Shopify's and WooCommerce's product CSVs, Google Merchant Center feeds,
 * PIM attribute codes (Akeneo, Plytix) and people's own sheets. Compared as compact words (case,
 * spaces and punctuation gone), after a shop's prefix ("Variant", "Google Shopping /") comes off.
 */

/** Compact form of words for comparing: "Frame width", "frame_width", "FrameWidth" → "framewidth". */
export const compact = (words: string) => words.replace(/ /g, '')

const WORDS = new Map<string, FieldPath>()
/** The same words as written, with their spaces: a typo is looked for word by word. */
const PHRASES: [phrase: string, path: FieldPath][] = []
const words = (path: FieldPath, ...phrases: string[]) => {
  for (const phrase of phrases) {
    WORDS.set(compact(phrase), path)
    PHRASES.push([phrase, path])
  }
}

words('orgId', 'org', 'org id', 'organisation', 'organization', 'organisation id', 'organization id')
words('productName', 'name', 'product', 'title', 'product name', 'product title', 'item name', 'label')
words('brand', 'brand name', 'manufacturer', 'vendor', 'make')
words(
  'productImage',
  'image',
  'images',
  'image url',
  'image urls',
  'image src',
  'image link',
  'main image',
  'main image url',
  'featured image',
  'photo',
  'photo url',
  'picture',
  'product image url',
  // Magento's main picture of a product (its small and thumbnail images are other sizes of it).
  'base image',
  // The first of numbered pictures (Etsy's listings download: IMAGE1 to IMAGE10); the others
  // match nothing, as a second picture has no field.
  'image 1',
  'photo 1',
  'picture 1',
  'img',
  'thumbnail',
)
words('actionUrl', 'url', 'link', 'product url', 'product link', 'product page', 'shop url', 'permalink')
words(
  'category',
  'categories',
  'main category',
  'product type',
  'category name',
  'product category name',
  // A price comparison feed's path of categories (idealo's "categoryPath": "Office > Money > Testers").
  'category path',
)
words('subCategory', 'sub category', 'subcategory', 'subcat', 'sub cat', 'type')
words(
  'isActive',
  'active',
  'enabled',
  'is active',
  'live',
  'published',
  'online',
  'published on online store',
)
words('meta.age', 'age', 'age group')
words('meta.gender', 'sex')
words('meta.frameShape', 'shape')
words('meta.material', 'frame material')
words('meta.frameWidth', 'total width')
words('meta.lensWidth', 'eye size')
words('meta.bridge', 'bridge size')
words('meta.temple', 'temple', 'temple size', 'arm length')
words('meta.lensColorDescription', 'lens colour', 'lens color')
words(
  'arEffect.effectAssets3D.0.url',
  '3d model',
  'glb',
  'model url',
  '3d model url',
  '3d url',
  'glb url',
  'ar model',
  'ar model url',
  'model 3d',
  'model 3d url',
)
words('arEffect.effectAssets3D.0.id', '3d model id', 'model id')

// The same fields in the languages shops export in (Italian, Spanish, Portuguese, French, German,
// Dutch, Polish): a real Italian price list headed Titolo, Marca, Cat, SCat and LinkImmagine was
// read as a sheet without names (WooCommerce's own translations are woocommerce-headers.ts').
words('productName', 'nome', 'nombre', 'nom', 'titolo', 'titulo', 'titre', 'naam', 'nazwa', 'produktname')
words(
  'productName',
  'nome prodotto',
  'nombre del producto',
  'nome do produto',
  'nom du produit',
  'nazwa produktu',
)
// French lists name a product by its article, its label or its designation ("Nom de l’article",
// "Libellé", "Désignation"): a real grocery's sheet read no names.
words('productName', 'nom de l article', 'nom article', 'libelle', 'designation')
// A German shop system's article list (a tryout's: Artikeltext1, Artikelgruppe): its article's text
// or designation is the name, its article or goods group the category, its maker the brand.
words('productName', 'artikeltext', 'artikeltext1', 'artikelbezeichnung', 'bezeichnung', 'artikelname')
words('category', 'artikelgruppe', 'warengruppe')
words('brand', 'hersteller')
words('brand', 'marca', 'marque', 'marke', 'merk', 'manufacturer name')
words('category', 'categoria', 'categorie', 'kategorie', 'kategoria', 'cat', 'famille')
// "Barcode" in the languages shops export in (Odoo's German "Strichcode" held every SKU back).
words(
  'barcode',
  'strichcode',
  'code barre',
  'code barres',
  'code a barres',
  'codigo de barras',
  'codice a barre',
  'kod kreskowy',
  'streepjescode',
)
// Shown in the shop or not (Squarespace's and Wix's "Visible"; PrestaShop's Polish back office
// exports its products' status as "Wyświetlany", shown).
words('isActive', 'visible', 'wyswietlany')
words(
  'subCategory',
  'sottocategoria',
  'subcategoria',
  'sous categorie',
  'unterkategorie',
  'subcategorie',
  'scat',
)
words('productImage', 'immagine', 'imagen', 'imagem', 'bild', 'afbeelding', 'zdjecie', 'obraz')
words(
  'productImage',
  'link immagine',
  'url immagine',
  'url imagen',
  'url de la imagen',
  'url da imagem',
  'image principale',
  // Squarespace's pictures, joined by spaces (convert.ts reads the first).
  'hosted image urls',
)
words('actionUrl', 'enlace', 'lien', 'collegamento')

/**
 * Standard product codes, printed under the bars and the same in every shop. A header made of
 * their names and a few joining words is a barcode column, however they are combined: "EAN",
 * "GTIN-13 (EAN)", "UPC/EAN", "Barcode number", WooCommerce's "GTIN, UPC, EAN, or ISBN".
 */
const BARCODE_CODES = new Set([
  'barcode',
  'ean',
  'ean13',
  'ean8',
  'gtin',
  'gtin8',
  'gtin12',
  'gtin13',
  'gtin14',
  'upc',
  'upca',
  'isbn',
  'isbn13',
  'jan',
  // A price comparison feed's (idealo's "eans"): a product's codes, most often one.
  'eans',
  'gtins',
])
/**
 * Words a barcode's header joins its code with, in the languages shops export in: "EAN code",
 * "Ref_EAN", "Code EAN", "Código EAN", "Codice EAN", "EAN-Nummer", "Kod EAN", "N° EAN".
 */
const BARCODE_JOINERS = new Set([
  ...['code', 'number', 'no', 'nr', 'or', 'and', 'a', 'bar', 'ref', 'reference'],
  ...['codigo', 'codice', 'kod', 'nummer', 'numero', 'n'],
])

function isBarcodeWords(words: string): boolean {
  const tokens = words.split(' ').filter(Boolean)
  // "Bar code" is the word barcode written in two.
  const named = tokens.some((token) => BARCODE_CODES.has(token)) || /\bbar code\b/.test(words)
  return (
    named &&
    tokens.every((token) => BARCODE_CODES.has(token) || BARCODE_JOINERS.has(token) || /^\d+$/.test(token))
  )
}

/**
 * A shop's or a maker's own codes: they identify the product in one system and are not printed as a
 * barcode, so they fill the barcode only when the person says so.
 */
const IDENTIFIER_PHRASES = [
  'sku',
  'sku code',
  'sku number',
  'sku id',
  'mpn',
  'handle',
  'id',
  'product id',
  'item id',
  'variant id',
  'article number',
  'article no',
  'art no',
  'style number',
  'model number',
  'reference',
  'ref',
  'code',
  'product code',
  'item code',
  'item number',
  'parent sku',
]
const IDENTIFIERS = new Set(IDENTIFIER_PHRASES.map(compact))

/** The field these words name, if the vocabulary knows them. */
export function fieldOfWords(words: string): FieldPath | undefined {
  return WORDS.get(compact(words)) ?? (isBarcodeWords(words) ? 'barcode' : undefined)
}

/** Whether these words name a shop's or maker's own code (SKU, MPN, Handle…), not a barcode. */
export function isIdentifierWords(words: string): boolean {
  return IDENTIFIERS.has(compact(words))
}

/**
 * The usual words of each field as phrases ("product name", "bar code"), for telling a typo of
 * them: the barcode by its own word (its codes, EAN or GTIN, are too short to tell a typo of).
 */
export function usualPhrases(): readonly (readonly [phrase: string, path: FieldPath])[] {
  return [...PHRASES, ['barcode', 'barcode'], ['bar code', 'barcode'], ['barcode number', 'barcode']]
}

/** The words of shops' own codes as phrases ("sku code"): a near miss of one is no barcode's. */
export function identifierPhrases(): readonly string[] {
  return IDENTIFIER_PHRASES
}
