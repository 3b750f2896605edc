// Prisma CLI configuration. Prisma 6.19 with the wasm ("js") schema engine and
// driver adapters is the combination that migrates without downloading a native
// engine; the provider follows DATABASE_URL.
import "dotenv/config";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import { absoluteSqliteUrl, prismaPaths, providerOf } from "./lib/config/database";

const projectRoot = import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname);
const rawUrl = process.env.DATABASE_URL ?? "file:.data/zap.db";
const provider = providerOf(rawUrl);
const databaseUrl = provider === "sqlite" ? absoluteSqliteUrl(rawUrl, projectRoot) : rawUrl;
// The schema files read DATABASE_URL themselves; keep them on the resolved value.
process.env.DATABASE_URL = databaseUrl;
const paths = prismaPaths(provider);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: paths.schema,
  migrations: { path: paths.migrations },
  async adapter() {
    return provider === "sqlite" ? new PrismaLibSQL({ url: databaseUrl }) : new PrismaPg({ connectionString: databaseUrl });
  },
});
