/**
 * The entries of a list of categories that say nothing of what a product is: the root of the
 * shop's category tree, and the collections a shop sells by. A list's category is chosen among
 * the others (convert.ts for any list, wix.ts for Wix's collections).
 */

/**
 * The names shops give the root of their category tree (PrestaShop's "Home", in the languages of
 * its installer), which every product sits under.
 */
const ROOT_CATEGORIES = new Set(['root', 'home', 'accueil', 'inicio', 'startseite', 'início', 'home page'])

/**
 * A shop's collections that group products to sell them, not by what they are: a sale, deals, what
 * is new, best sellers, a named collection. A real Wix shop's "Deals 3 for 120;New Arrivals;Tops"
 * gave its SKUs the category "Deals 3 for 120", and "Marine Collection;Pendants" "Marine Collection".
 */
const SELLING_COLLECTION =
  /^(?:(?:on )?sale|sales|deals?(?: .*)?|(?:special )?offers?|promo(?:tions?)?|promos|clearance|new|new arrivals?|new in|just in|best ?sellers?|featured(?: products)?|trending(?: now)?|all products|shop all|gift ideas|soldes|nouveautés|ofertas|rebajas|novedades|saldi|novità|angebote|neuheiten)$|\bcollection$/

/** Whether a list's entry is the shop's root or a collection to sell by (see above). */
export function isAsideCategory(entry: string): boolean {
  const name = entry.trim().toLowerCase()
  return ROOT_CATEGORIES.has(name) || SELLING_COLLECTION.test(name)
}
