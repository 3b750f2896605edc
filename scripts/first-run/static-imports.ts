// Follows the static imports of a script through the project's own files, the
// way Node loads them before any line of the script runs. Dynamic `import()`
// and type-only imports are not followed: neither loads anything at start-up.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const EXTENSIONS = ["", ".ts", ".tsx", ".mts", ".mjs", ".js", "/index.ts", "/index.tsx"];

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false; // `import "x"` runs x
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** The module specifiers `file` imports statically (values, not types). */
export function staticSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    if (!statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier) || isTypeOnly(statement)) continue;
    specifiers.push(statement.moduleSpecifier.text);
  }
  return specifiers;
}

/** Where a project-local specifier points (existing or not); undefined for packages and Node built-ins. */
function target(root: string, from: string, specifier: string): string | undefined {
  if (specifier.startsWith("@/")) return path.join(root, specifier.slice(2));
  if (specifier.startsWith(".")) return path.resolve(path.dirname(from), specifier);
  return undefined;
}

function resolveFile(base: string): string | undefined {
  return EXTENSIONS.map((ext) => base + ext).find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/**
 * The first chain of static imports from `entry` to a project file matching
 * `forbidden` (tested on the path as written, so a file not generated yet
 * still counts), or null. Paths are relative to `root`.
 */
export function importChainTo(root: string, entry: string, forbidden: (relativePath: string) => boolean): string[] | null {
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]): string[] | null => {
    if (seen.has(file)) return null;
    seen.add(file);
    if (!/\.(m?ts|tsx|mjs|js)$/.test(file)) return null; // JSON and assets import nothing
    for (const specifier of staticSpecifiers(file)) {
      const base = target(root, file, specifier);
      if (!base) continue;
      const relative = path.relative(root, base);
      if (forbidden(relative)) return [...chain, relative];
      const resolved = resolveFile(base);
      if (!resolved) continue;
      const found = visit(resolved, [...chain, path.relative(root, resolved)]);
      if (found) return found;
    }
    return null;
  };
  return visit(path.join(root, entry), [entry]);
}

/** Every project file `entry` loads statically, relative to `root`. */
export function staticImportClosure(root: string, entry: string): string[] {
  const files: string[] = [];
  importChainTo(root, entry, (relative) => {
    files.push(relative);
    return false;
  });
  return files;
}
