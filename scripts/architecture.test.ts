// The layering of lib/, read from the source: no domain (lib/<domain>, server
// half included) imports a domain that imports it back, no folder or file
// cycles, lib never imports worker/ (the worker builds on lib, not the reverse),
// and the workflow contract stays browser-safe. ESLint keeps the per-import
// rules (eslint.config.mjs); a cycle only shows across files, so it is checked here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WORKFLOW_BUNDLE_INPUTS } from "./lib/workflow-bundle";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Every import, export-from, side-effect and dynamic import specifier (a regex is enough for this code base). */
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^"'`;]*?\sfrom\s*)?["']([^"'\n]+)["']|\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)/g;

interface Edge {
  from: string;
  to: string;
  /** The first import line that makes this edge, e.g. `lib/auth/x.ts -> ../http/y`. */
  example: string;
}

/** lib's source files, relative to the root; tests are left out (they drive the system as a whole). */
function libSources(): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (relative !== "lib/db/generated") visit(relative);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        found.push(relative);
      }
    }
  };
  visit("lib");
  return found.sort();
}

/** Non-test TypeScript sources under a folder (generated code left out). */
function sourcesUnder(dir: string): string[] {
  const found: string[] = [];
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (relative !== "lib/db/generated" && entry.name !== "node_modules") visit(relative);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        found.push(relative);
      }
    }
  };
  visit(dir);
  return found.sort();
}

/** The project file an import names (relative to the root), or null for a package. */
function resolveImport(fromFile: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(fromFile), specifier);
  else return null;
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`, base]) {
    if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  }
  return base; // unresolved (a generated file not built yet): still counts by its folder
}

/** Each import of each file, resolved. */
function importsOf(files: string[]): { file: string; specifier: string; target: string }[] {
  return files.flatMap((file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    return [...text.matchAll(IMPORT)].flatMap((match) => {
      const specifier = match[1] ?? match[2] ?? "";
      const target = resolveImport(file, specifier);
      return target ? [{ file, specifier, target }] : [];
    });
  });
}

/**
 * The folder a file counts in: a domain's browser-safe half (`lib/<domain>`, its
 * subfolders included) or its server half (`lib/<domain>/server`); files directly
 * in lib/ (errors.ts) are one more node, `lib`.
 */
function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts.length <= 2) return parts[0] ?? file;
  return parts[2] === "server" && parts.length > 3 ? parts.slice(0, 3).join("/") : parts.slice(0, 2).join("/");
}

/** The domain a file belongs to: `lib/<domain>` with its server half, or `lib` for files directly in lib/. */
function domainOf(file: string): string {
  const parts = file.split("/");
  return parts.length <= 2 ? (parts[0] ?? file) : parts.slice(0, 2).join("/");
}

function graphOf(imports: { file: string; specifier: string; target: string }[], nodeOf: (file: string) => string): Edge[] {
  const edges = new Map<string, Edge>();
  for (const { file, specifier, target } of imports) {
    if (!target.startsWith("lib/")) continue;
    const from = nodeOf(file);
    const to = nodeOf(target);
    if (from !== to && !edges.has(`${from}\n${to}`)) edges.set(`${from}\n${to}`, { from, to, example: `${file} -> ${specifier}` });
  }
  return [...edges.values()];
}

/** The strongly connected components with more than one node (Tarjan), each with the edges inside it. */
function cyclesOf(edges: Edge[]): { nodes: string[]; edges: string[] }[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components.map((members) => ({
    nodes: members,
    edges: edges.filter((e) => members.includes(e.from) && members.includes(e.to)).map((e) => `${e.from} -> ${e.to} (${e.example})`),
  }));
}

describe("the layering of lib/", () => {
  const imports = importsOf(libSources());

  it("reads the imports it checks (a broken reader would pass everything)", () => {
    expect(imports.length, "imports found in lib/").toBeGreaterThan(300);
    expect(imports).toContainEqual({ file: "lib/db/prisma.ts", specifier: "./transactions", target: "lib/db/transactions.ts" });
  });

  it("finds a cycle when there is one", () => {
    const cycles = cyclesOf([
      { from: "lib/a", to: "lib/b", example: "a" },
      { from: "lib/b", to: "lib/c", example: "b" },
      { from: "lib/c", to: "lib/a", example: "c" },
      { from: "lib/c", to: "lib/d", example: "d" },
    ]);
    expect(cycles.map((c) => c.nodes)).toEqual([["lib/a", "lib/b", "lib/c"]]);
  });

  it("has no domain cycles: lib/<domain> and its server half count as one (move the shared piece down a layer to break one)", () => {
    expect(cyclesOf(graphOf(imports, domainOf)), "domains that import each other, with one import line per edge").toEqual([]);
  });

  it("counts a domain's server half with the domain (a cycle through lib/x/server is a cycle of lib/x)", () => {
    const edges = graphOf(
      [
        { file: "lib/a/server/store.ts", specifier: "../../b/read", target: "lib/b/read.ts" },
        { file: "lib/b/read.ts", specifier: "../a/schemas", target: "lib/a/schemas.ts" },
      ],
      domainOf,
    );
    expect(cyclesOf(edges).map((c) => c.nodes)).toEqual([["lib/a", "lib/b"]]);
    expect(cyclesOf(graphOf([{ file: "lib/a/server/store.ts", specifier: "../schemas", target: "lib/a/schemas.ts" }], domainOf))).toEqual([]);
  });

  it("has no folder cycles (move the shared piece down a layer to break one)", () => {
    expect(cyclesOf(graphOf(imports, folderOf)), "folders that import each other, with one import line per edge").toEqual([]);
  });

  it("has no file cycles", () => {
    expect(cyclesOf(graphOf(imports, (file) => file.replace(/\.tsx?$/, ""))), "files that import each other").toEqual([]);
  });

  it("reads and writes the run ledger's tables only in lib/run-ledger (one reader, one writer)", () => {
    const LEDGER_CALL = /\.(run|runEvent|runSpan|runMessage)\.(find\w*|count|create\w*|update\w*|upsert|delete\w*|groupBy|aggregate)\(/;
    const sources = ["lib", "app", "components", "worker"].flatMap((dir) => sourcesUnder(dir)).filter((file) => !file.startsWith("lib/run-ledger/"));
    expect(sources.length, "the scan reads files").toBeGreaterThan(100);
    // The one exception: the saved-agents store counts runs per version and reads a graph's last run
    // status; lib/agents sits below the contract the run ledger builds on, so importing it would be a cycle.
    const exempt = new Set(["lib/agents/server/store.ts"]);
    const offenders = sources.filter((file) => !exempt.has(file) && LEDGER_CALL.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(offenders, "call lib/run-ledger/read.ts or write.ts instead").toEqual([]);
  });

  it("never imports worker/ from lib/", () => {
    const intoWorker = imports.filter((i) => i.target.startsWith("worker/")).map((i) => `${i.file} -> ${i.specifier}`);
    expect(intoWorker, "lib files importing worker/: move the shared piece into lib").toEqual([]);
  });

  it("keeps lib/contract browser-safe: the web, the browser and the worker all import it", () => {
    const contract = libSources().filter((file) => file.startsWith("lib/contract/"));
    expect(contract.length, "the contract's files").toBeGreaterThanOrEqual(3);
    const serverOnly = /^(server-only|node:|fs$|path$|crypto$|@prisma\/|@temporalio\/(client|worker|activity)$)|\/server\/|\/db\//;
    const offending = contract.flatMap((file) =>
      [...fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? "").filter((specifier) => serverOnly.test(specifier)).map((specifier) => `${file} -> ${specifier}`),
    );
    expect(offending, "server-only imports in lib/contract").toEqual([]);
  });
});

/** Runtime imports only (`import type` is erased and costs nothing at run time). */
const RUNTIME_IMPORT = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^"'`;]*?\sfrom\s*)?["']([^"'\n]+)["']/g;

/** Every project file `entry` loads at run time (workflow code by default), and the packages it loads (with the first file that does). */
function workflowRuntimeImports(entry = "worker/workflows/index.ts"): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file) || !fs.existsSync(path.join(ROOT, file))) continue;
    files.add(file);
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    for (const match of text.matchAll(RUNTIME_IMPORT)) {
      const specifier = match[1] ?? "";
      const target = resolveImport(file, specifier);
      if (target) queue.push(target);
      else if (!packages.has(specifier)) packages.set(specifier, file);
    }
  }
  return { files, packages };
}

describe("workflow code", () => {
  it("is covered by the workflow bundle's fingerprint: a change in any folder it loads rebuilds the bundle npm start serves", () => {
    const { files } = workflowRuntimeImports();
    const uncovered = [...files].filter((file) => !WORKFLOW_BUNDLE_INPUTS.some((input) => file === input || file.startsWith(`${input}/`)));
    expect(uncovered, "add their folders to WORKFLOW_BUNDLE_INPUTS (scripts/lib/workflow-bundle.ts)").toEqual([]);
  });

  it("never loads zod: every module a workflow imports is instantiated once per cached workflow (zod cost the worker ~1.5 MB per run)", () => {
    const { files: seen, packages } = workflowRuntimeImports();
    expect(seen.size, "the walk reached the workflow modules").toBeGreaterThan(5);
    const heavy = [...packages].filter(([name]) => name === "zod" || name.startsWith("zod/")).map(([name, file]) => `${file} -> ${name}`);
    expect(heavy, "keep zod schemas out of modules workflow code imports (see lib/tools/catalog.ts)").toEqual([]);
  });
});

describe("the worker process", () => {
  it("never loads a server-only module: it is plain Node, where `server-only` throws on import (a run start shared with the web server once did, and every worker process died at start)", () => {
    const { files, packages } = workflowRuntimeImports("worker/main.ts");
    expect(files.size, "the walk reached the worker's modules").toBeGreaterThan(50);
    expect(packages.has("server-only") ? `${packages.get("server-only")} -> server-only` : null, "move the shared piece out of lib/<domain>/server (no `import \"server-only\"`)").toBeNull();
  });
});

describe("the dashboard's links", () => {
  it("go through components/ui/link.tsx, which prefetches nothing unless asked: every page is dynamic, and prefetching each link on screen rendered the layout some forty times per overview load", () => {
    const direct = [...sourcesUnder("app"), ...sourcesUnder("components")].filter(
      (file) => file !== "components/ui/link.tsx" && /from\s+["']next\/link["']/.test(fs.readFileSync(path.join(ROOT, file), "utf8")),
    );
    expect(direct, 'import Link from "@/components/ui/link" instead of next/link').toEqual([]);
  });
});
