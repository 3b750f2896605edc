import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { PROJECT_ROOT } from "../lib/run";
import { prismaPaths, type DatabaseProvider } from "../../lib/config/database";

/** Reads the canonical (SQLite) schema. */
export async function readCanonicalSchema(): Promise<string> {
  return readFile(path.join(PROJECT_ROOT, prismaPaths("sqlite").schema), "utf8");
}

/** Derives a provider's schema text from the canonical (SQLite) schema text. */
export function schemaTextFor(provider: DatabaseProvider, canonical: string): string {
  if (provider === "sqlite") return canonical;
  const derived = canonical
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace(/output\s*=\s*"\.\.\/lib\/db\/generated\/sqlite"/, 'output     = "../../../lib/db/generated/postgresql"');
  if (derived === canonical || !derived.includes('"postgresql"') || !derived.includes("generated/postgresql")) {
    throw new Error("prisma/schema.prisma no longer has the datasource/generator lines the PostgreSQL variant is derived from");
  }
  return `// Generated from prisma/schema.prisma by scripts/db/schemas.ts. Do not edit.\n${derived}`;
}

/** Writes the derived PostgreSQL schema file and returns the schema path of every provider. */
export async function writeDerivedSchemas(): Promise<Record<DatabaseProvider, string>> {
  const pgPath = path.join(PROJECT_ROOT, prismaPaths("postgresql").schema);
  await mkdir(path.dirname(pgPath), { recursive: true });
  await writeFile(pgPath, schemaTextFor("postgresql", await readCanonicalSchema()));
  return {
    sqlite: path.join(PROJECT_ROOT, prismaPaths("sqlite").schema),
    postgresql: pgPath,
  };
}
