// @ts-check
/**
 * Kinds of draft, kinds of destination and the service's operations are values, each said once in
 * its table (docs/architecture.md, "Adding an operation, a kind of draft or a destination"); code asks an entry instead of
 * asking which one it has. This rule keeps branches from growing back: a comparison or a `case`
 * of something named like a kind (`kind`, `run.kind`, `props.kind`, `tokenStorage`) or an operation
 * with one of the tables' names fails `npm run lint`, in scripts and in Vue templates alike, outside
 * the table files themselves. `test/unit/lint/table-branches.test.ts` plants one of each and checks
 * that the names below are the tables' own.
 */

/** The tables, the names they hold, and what a branch on them should ask instead. */
export const TABLES = [
  {
    what: 'kind of draft',
    file: 'src/shared/sync/kinds.ts',
    names: ['skus', 'apps'],
    instead: "its DraftKind's fields (draftKind(kind))",
  },
  {
    what: 'kind of destination',
    file: 'src/shared/sync/destination.ts',
    names: ['embedded-sandbox', 'service'],
    instead: "its DestinationKind's fields (destinationKindOf(profile))",
  },
  {
    what: 'operation',
    file: 'src/shared/service/operations.ts',
    names: ['bulk-upload', 'create-app', 'update-sku'],
    instead: "its entry's fields (serviceOperation(key))",
  },
]

/** What names a kind or an operation: `kind`, `run.kind`, `tokenStorage`, `request.operation`. */
const SUBJECT = /^(kind|\w+Kind|tokenStorage|operation)$/
/** The destination's own name is never compared: it is one, whatever names it. */
const ALWAYS = new Set(['embedded-sandbox'])

/** @param {any} node */
function nameOf(node) {
  if (!node) return undefined
  if (node.type === 'Identifier') return node.name
  if (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression')
    return node.property.type === 'Identifier' ? node.property.name : node.property.value
  if (node.type === 'ChainExpression') return nameOf(node.expression)
  if (node.type === 'TSNonNullExpression' || node.type === 'TSAsExpression') return nameOf(node.expression)
  return undefined
}

/** @param {any} node */
const literal = (node) =>
  node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined

/**
 * The table a comparison of `subject` with `value` branches on, if it does.
 * @param {any} subject @param {string | undefined} value
 */
function branchedTable(subject, value) {
  if (value === undefined) return undefined
  const table = TABLES.find((entry) => entry.names.includes(value))
  if (!table) return undefined
  if (ALWAYS.has(value)) return table
  const name = nameOf(subject)
  return name !== undefined && SUBJECT.test(name) ? table : undefined
}

/** @type {import('eslint').Rule.RuleModule} */
export const tableBranchesRule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'No branch on a kind of draft, a kind of destination or an operation outside its table.',
    },
    schema: [],
    messages: {
      branch:
        'A branch on the {{what}} "{{name}}": ask {{instead}} instead, or add a field to its table ({{file}}).',
    },
  },
  create(context) {
    const file = context.filename.split('\\').join('/')
    if (TABLES.some((table) => file.endsWith(`/${table.file}`))) return {}

    /** @param {any} node @param {any} subject @param {any} other */
    const check = (node, subject, other) => {
      const value = literal(other)
      const table = branchedTable(subject, value)
      if (!table) return
      const { what, file, instead } = table
      context.report({ node, messageId: 'branch', data: { what, file, instead, name: value ?? '' } })
    }
    const visitor = {
      /** @param {any} node */
      BinaryExpression(node) {
        if (!['===', '!==', '==', '!='].includes(node.operator)) return
        check(node, node.left, node.right)
        check(node, node.right, node.left)
      },
      /** @param {any} node */
      SwitchCase(node) {
        if (node.test) check(node, node.parent.discriminant, node.test)
      },
    }
    // In a Vue file, the template's expressions too (eslint-plugin-vue's parser).
    const services = /** @type {any} */ (context.sourceCode.parserServices)
    return services?.defineTemplateBodyVisitor
      ? services.defineTemplateBodyVisitor(visitor, visitor)
      : visitor
  },
}

export default { rules: { 'table-branches': tableBranchesRule } }
