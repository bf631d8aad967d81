/**
 * Lists the exports of `src/` that no other module imports, by reading
 * every import and re-export of the project with the TypeScript compiler API.
 *
 * Usage: `npx tsx scripts/unused-exports.ts [--src-only] [--root DIR]`. With `--src-only` an
 * import from test/, bench/ or sandbox/ does not count as a use; `--root` reads another
 * project (its tsconfig.json and src/; default this one, as its test does with fixtures). Prints one `file: name (kind)` line a
 * dead export and a closing count, and exits 1 when there is any: `.ci/run` runs it after
 * the lint, so an export nothing imports is made module-private or removed.
 */
import { relative, resolve } from 'node:path';
import ts from 'typescript';

const rootArg = process.argv.indexOf('--root');
const root =
  rootArg >= 0 && process.argv[rootArg + 1]
    ? resolve(process.argv[rootArg + 1]!)
    : resolve(import.meta.dirname, '..');
const srcOnly = process.argv.includes('--src-only');
const config = ts.getParsedCommandLineOfConfigFile(
  resolve(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
if (!config) throw new Error('tsconfig.json could not be read');
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const rel = (f: string): string => relative(root, f);
const ours = program
  .getSourceFiles()
  .filter(
    (f) =>
      !f.isDeclarationFile &&
      !rel(f.fileName).startsWith('..') &&
      !rel(f.fileName).startsWith('node_modules'),
  );

/** `file -> names imported from it`; `*` stands for a namespace import or `export *`. */
const used = new Map<string, Set<string>>();
function use(file: string, name: string): void {
  const names = used.get(file) ?? new Set<string>();
  used.set(file, names);
  names.add(name);
}
function target(from: ts.SourceFile, spec: ts.Expression): string | undefined {
  if (!ts.isStringLiteral(spec)) return undefined;
  const r = ts.resolveModuleName(spec.text, from.fileName, config!.options, ts.sys).resolvedModule;
  return r ? rel(r.resolvedFileName) : undefined;
}
for (const sf of ours) {
  if (srcOnly && !rel(sf.fileName).startsWith('src/')) continue;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const t = target(sf, node.moduleSpecifier);
      const clause = node.importClause;
      if (t && clause) {
        if (clause.name) use(t, 'default');
        const nb = clause.namedBindings;
        if (nb && ts.isNamespaceImport(nb)) use(t, '*');
        if (nb && ts.isNamedImports(nb))
          for (const e of nb.elements) use(t, (e.propertyName ?? e.name).text);
      }
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const t = target(sf, node.moduleSpecifier);
      if (t && !node.exportClause) use(t, '*');
      else if (t && node.exportClause && ts.isNamedExports(node.exportClause))
        for (const e of node.exportClause.elements) use(t, (e.propertyName ?? e.name).text);
      else if (t) use(t, '*');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      const t = arg ? target(sf, arg) : undefined;
      if (t) use(t, '*');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const t = target(sf, node.argument.literal);
      if (t) use(t, node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

let total = 0;
let values = 0;
const dead: string[] = [];
let deadValues = 0;
for (const sf of ours) {
  const file = rel(sf.fileName);
  if (!file.startsWith('src/')) continue;
  const symbol = checker.getSymbolAtLocation(sf);
  if (!symbol) continue;
  const names = used.get(file) ?? new Set<string>();
  for (const ex of checker.getExportsOfModule(symbol)) {
    total++;
    const resolved = ex.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(ex) : ex;
    const isValue = (resolved.flags & ts.SymbolFlags.Value) !== 0;
    if (isValue) values++;
    if (names.has(ex.name) || names.has('*')) continue;
    if (isValue) deadValues++;
    dead.push(`${file}: ${ex.name} (${isValue ? 'value' : 'type'})`);
  }
}
for (const line of dead.sort()) console.log(line);
console.log(
  `${dead.length} of ${total} exports of src/ imported by nothing${srcOnly ? ' in src/' : ''} (${deadValues} of ${values} values)`,
);
if (dead.length > 0) process.exitCode = 1;
