import { wordsOf } from './header-words.ts'

/**
 * PrestaShop's own columns headed in the back office's other languages. Its import maps a file's
 * columns by hand, so a shop's files are headed however their makers chose: often with the back
 * office's labels in the shop's language, as a real Spanish combinations file is ("Id del
 * Producto", "Atributo (Nombre:Tipo:Posicion)*", "Valor (Valor:Posicion)*", "Referencia", beside
 * an English products file: cotanol/Scrapping-testing @ 47cc418c,
 * 20251013012751-royo-combinations_import.csv), and a French shop's generator writes its own
 * ("ID produit*", "Attribut (Nom:Type:Position)*", "Valeur (Valeur:Position)*").
 *
 * Only the columns the format reads itself (prestashop.ts: the product, its attributes and values)
 * and those a combination has of its own (its codes, its pictures: matched to the products file's
 * columns in prestashop-pair.ts) are listed; every other column is matched to a field as any
 * sheet's is. Keyed by the header's words (accents, case and punctuation aside), each is the
 * header PrestaShop's English files give the column.
 */
const IN_ENGLISH: Readonly<Record<string, string>> = {
  // Spanish
  'id del producto': 'Product ID',
  'id de producto': 'Product ID',
  'referencia del producto': 'Product Reference',
  'referencia de producto': 'Product Reference',
  'atributo nombre tipo posicion': 'Attribute (Name:Type:Position)*',
  'valor valor posicion': 'Value (Value:Position)*',
  referencia: 'Reference',
  'ref proveedor': 'Supplier reference',
  'referencia de proveedor': 'Supplier reference',
  'urls de las imagenes x y z': 'Image URLs (x,y,z...)',
  'urls de imagenes x y z': 'Image URLs (x,y,z...)',
  'textos alternativos de imagen x y z': 'Image alt texts (x,y,z...)',
  // French
  'id produit': 'Product ID',
  'reference produit': 'Product Reference',
  'attribut nom type position': 'Attribute (Name:Type:Position)*',
  'valeur valeur position': 'Value (Value:Position)*',
  'reference fournisseur': 'Supplier reference',
}

/** The header PrestaShop's English files give this column, when it is one of its own in another language; else `header`. */
export function inEnglish(header: string): string {
  return IN_ENGLISH[wordsOf(header)] ?? header
}
