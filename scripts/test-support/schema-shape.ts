// Reads a database's structure (tables, columns, indexes) in a comparable form,
// so tests can check that the committed migrations build the schema exactly.
import { createClient } from "@libsql/client";
import pg from "pg";
import type { TestDatabase } from "./databases";

export type SchemaShape = Record<string, { columns: string[]; indexes: string[] }>;

// Full-text objects written by hand in a migration (schema.prisma cannot declare them), so a
// database built from the schema alone lacks them: the SQLite FTS5 table with its shadow tables,
// the PostgreSQL tsvector column and its GIN index. lib/search's integration tests show they exist and work.
const HAND_WRITTEN_TABLE = /^search_fts(_|$)/;
const HAND_WRITTEN_INDEX = /^CREATE INDEX search_documents_fts_idx /;
const HAND_WRITTEN_COLUMN = "search_documents.search_vector";

async function sqliteShape(url: string): Promise<SchemaShape> {
  const client = createClient({ url });
  try {
    const tables = await client.execute("select name from sqlite_master where type = 'table' and name not like '\\_prisma%' escape '\\' and name not like 'sqlite_%' order by name");
    const shape: SchemaShape = {};
    for (const row of tables.rows) {
      const table = String(row.name);
      if (HAND_WRITTEN_TABLE.test(table)) continue;
      const columns = await client.execute(`pragma table_info("${table}")`);
      const indexes = await client.execute(`pragma index_list("${table}")`);
      const indexDefs: string[] = [];
      for (const index of indexes.rows) {
        const cols = await client.execute(`pragma index_info("${String(index.name)}")`);
        indexDefs.push(`${String(index.name)} unique=${String(index.unique)} (${cols.rows.map((c) => String(c.name)).join(",")})`);
      }
      shape[table] = {
        // Sorted: ALTER TABLE ADD COLUMN appends, so column order depends on migration history, not on the schema.
        columns: columns.rows.map((c) => `${String(c.name)} ${String(c.type)} notnull=${String(c.notnull)} default=${String(c.dflt_value)} pk=${String(c.pk)}`).sort(),
        indexes: indexDefs.sort(),
      };
    }
    return shape;
  } finally {
    client.close();
  }
}

async function postgresShape(url: string): Promise<SchemaShape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
      "select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = 'public' and table_name <> '_prisma_migrations' order by table_name, column_name",
    );
    const indexes = await client.query<{ tablename: string; indexdef: string }>(
      "select tablename, indexdef from pg_indexes where schemaname = 'public' and tablename <> '_prisma_migrations' order by indexname",
    );
    const shape: SchemaShape = {};
    for (const c of columns.rows) {
      if (`${c.table_name}.${c.column_name}` === HAND_WRITTEN_COLUMN) continue;
      shape[c.table_name] ??= { columns: [], indexes: [] };
      shape[c.table_name]!.columns.push(`${c.column_name} ${c.data_type} nullable=${c.is_nullable} default=${c.column_default}`);
    }
    for (const i of indexes.rows) if (!HAND_WRITTEN_INDEX.test(i.indexdef)) shape[i.tablename]?.indexes.push(i.indexdef);
    return shape;
  } finally {
    await client.end();
  }
}

export function schemaShape(db: TestDatabase): Promise<SchemaShape> {
  return db.provider === "sqlite" ? sqliteShape(db.url) : postgresShape(db.url);
}

/** Runs a multi-statement SQL script directly through the database driver. */
export async function executeScript(db: TestDatabase, sql: string): Promise<void> {
  if (db.provider === "sqlite") {
    const client = createClient({ url: db.url });
    try {
      await client.executeMultiple(sql);
    } finally {
      client.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
