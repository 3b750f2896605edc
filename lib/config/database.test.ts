import { describe, expect, it } from "vitest";
import { absoluteSqliteUrl, providerOf, sqliteFilePath } from "./database";
import { schemaTextFor } from "../../scripts/db/schemas";
import { isEmptyMigration } from "../../scripts/db/new-migration";

describe("database providers", () => {
  it.each([
    ["postgres://u@h/db", "postgresql"],
    ["postgresql://u@h/db", "postgresql"],
    ["POSTGRES://u@h/db", "postgresql"],
    ["file:.data/zap.db", "sqlite"],
  ])("%s → %s", (url, provider) => {
    expect(providerOf(url)).toBe(provider);
  });

  it("makes SQLite paths absolute against a base folder", () => {
    expect(absoluteSqliteUrl("file:./a/b.db", "/root/p")).toBe("file:/root/p/a/b.db");
    expect(absoluteSqliteUrl("file:/abs/c.db", "/root/p")).toBe("file:/abs/c.db");
    expect(sqliteFilePath("file:/abs/c.db")).toBe("/abs/c.db");
  });
});

describe("derived PostgreSQL schema", () => {
  const canonical = `generator client {\n  provider   = "prisma-client"\n  output     = "../lib/db/generated/sqlite"\n}\ndatasource db {\n  provider = "sqlite"\n  url = env("DATABASE_URL")\n}\nmodel A { id String @id }\n`;

  it("switches provider and output, keeps the models", () => {
    const pg = schemaTextFor("postgresql", canonical);
    expect(pg).toContain('provider = "postgresql"');
    expect(pg).toContain('"../../../lib/db/generated/postgresql"');
    expect(pg).toContain("model A { id String @id }");
    expect(pg).not.toContain('"sqlite"');
  });

  it("fails loudly when the schema no longer has the lines it rewrites", () => {
    expect(() => schemaTextFor("postgresql", "model A { id String @id }")).toThrow(/derived from/);
  });

  it("recognises a migration with no statements", () => {
    expect(isEmptyMigration("-- This is an empty migration.\n\n")).toBe(true);
    expect(isEmptyMigration('-- CreateTable\nCREATE TABLE "x" ();')).toBe(false);
  });
});
