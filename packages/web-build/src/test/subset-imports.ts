import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// For the test of the shared react-router subset (react-router-subset.js): the names a subset file
// exports, and every way the apps' shipped code reaches a package, read from the TypeScript AST.

export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

const APP_SOURCES = ['shell', 'mf-catalog', 'mf-cart-checkout', 'mf-account', 'mf-admin', 'packages/state'].map((dir) =>
  join(ROOT, dir, 'src'),
);

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** The names in a subset file's `export { … } from`. */
export async function subsetNames(file: string): Promise<string[]> {
  const source = parse(file, await readFile(file, 'utf8'));
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.push(element.name.text);
    }
  }
  return names;
}

/** The apps' shipped browser source files: no tests, no test helpers, no server entries. */
export async function appSourceFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const dir of APP_SOURCES) {
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      if (relative(dir, entry.parentPath).split('/').includes('test')) continue;
      // A remote's server entry (src/server.tsx) is built for Node, where the rendering server
      // answers react-router with the whole library, never the subset.
      if (entry.parentPath === dir && /^server\.tsx?$/.test(entry.name)) continue;
      files.push(join(entry.parentPath, entry.name));
    }
  }
  return files;
}

export interface PackageUses {
  /** Value names imported or re-exported by name, with the files that do it. */
  names: Map<string, string[]>;
  /**
   * Uses whose names cannot be listed: `import * as`, a default import, `export * from`, a dynamic
   * `import()` or `require()` (as `file: what`). The subset must stay checkable, so each is a failure.
   */
  unlisted: string[];
}

/** How `text` (the file `file`) reaches any of `packages`. Type-only imports and exports are erased and do not count. */
export function packageUses(
  file: string,
  text: string,
  packages: readonly string[],
  uses: PackageUses = { names: new Map(), unlisted: [] },
): PackageUses {
  const wanted = new Set(packages);
  const add = (name: string) => uses.names.set(name, [...(uses.names.get(name) ?? []), file]);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && wanted.has(node.moduleSpecifier.text)) {
      const clause = node.importClause;
      if (clause && !clause.isTypeOnly) {
        if (clause.name) uses.unlisted.push(`${file}: default import from ${node.moduleSpecifier.text}`);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) uses.unlisted.push(`${file}: import * from ${node.moduleSpecifier.text}`);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) if (!element.isTypeOnly) add((element.propertyName ?? element.name).text);
        }
      }
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      wanted.has(node.moduleSpecifier.text)
    ) {
      if (!node.isTypeOnly) {
        if (!node.exportClause || ts.isNamespaceExport(node.exportClause))
          uses.unlisted.push(`${file}: export * from ${node.moduleSpecifier.text}`);
        else for (const element of node.exportClause.elements) if (!element.isTypeOnly) add((element.propertyName ?? element.name).text);
      }
    } else if (ts.isCallExpression(node)) {
      const [argument] = node.arguments;
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if ((isImport || isRequire) && argument && ts.isStringLiteralLike(argument) && wanted.has(argument.text)) {
        uses.unlisted.push(`${file}: ${isImport ? 'import' : 'require'}('${argument.text}')`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  return uses;
}

/** packageUses over these files, paths relative to the repository. */
export async function importedNames(files: string[], packages: readonly string[]): Promise<PackageUses> {
  const uses: PackageUses = { names: new Map(), unlisted: [] };
  for (const file of files) packageUses(relative(ROOT, file), await readFile(file, 'utf8'), packages, uses);
  return uses;
}
