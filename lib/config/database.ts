import path from "node:path";

/** The databases Zap Studio runs on. SQLite is the embedded default; PostgreSQL is the scale path. */
export type DatabaseProvider = "sqlite" | "postgresql";

export const DATABASE_PROVIDERS: readonly DatabaseProvider[] = ["sqlite", "postgresql"];

/** Which provider a connection URL selects: `postgres://`/`postgresql://` mean PostgreSQL, `file:` means SQLite. */
export function providerOf(databaseUrl: string): DatabaseProvider {
  return /^postgres(ql)?:\/\//i.test(databaseUrl) ? "postgresql" : "sqlite";
}

/**
 * Turns a SQLite URL into an absolute `file:` URL, resolved against `baseDir`.
 * Relative paths would otherwise resolve against whichever process opened the
 * database (Next, the worker, the Prisma CLI), which differ.
 */
export function absoluteSqliteUrl(databaseUrl: string, baseDir: string): string {
  const filePath = databaseUrl.replace(/^file:(\/\/)?/, "");
  return `file:${path.resolve(baseDir, filePath)}`;
}

/** The filesystem path of a SQLite `file:` URL. */
export function sqliteFilePath(databaseUrl: string): string {
  return databaseUrl.replace(/^file:(\/\/)?/, "");
}

/** Where each provider's schema and committed migrations live, relative to the project root. */
export function prismaPaths(provider: DatabaseProvider) {
  return {
    schema: provider === "sqlite" ? "prisma/schema.prisma" : "prisma/.generated/postgresql/schema.prisma",
    migrations: `prisma/migrations/${provider}`,
  };
}
