import fs from "node:fs";
import path from "node:path";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

// Workflow code runs in Temporal's deterministic sandbox: no Node built-ins,
// no database, no server modules, no I/O.
const workflowRestrictions = {
  patterns: [
    { group: ["node:*", "fs", "path", "os", "crypto", "child_process", "http", "https", "net"], message: "Workflow code must be deterministic: no Node built-ins (use an activity)." },
    { group: ["@prisma/*", "pg", "@libsql/*", "**/db/**", "**/server/**", "@temporalio/client", "@temporalio/worker", "@temporalio/activity"], message: "Workflow code must not do I/O: call an activity instead." },
  ],
};

// The layers, kept by lint rather than by memory (README "Layout"). Tests are
// exempt: they drive the system as a whole (a lib test may start a worker).
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];

// lib is what the web app and the worker share; it never reaches into the worker.
const libRestrictions = {
  patterns: [{ group: ["**/worker/**", "@/worker/*"], message: "lib must not import worker: move the shared piece into lib (the worker imports lib, not the reverse)." }],
};

// Client components ship to the browser: server modules, Prisma and the Temporal
// client are off limits, except as types (erased from the bundle).
const clientRestrictions = {
  patterns: [
    {
      group: ["**/server/**", "server-only", "**/lib/db/**", "@/lib/db/*", "@prisma/*", "@temporalio/client"],
      allowTypeImports: true,
      message: "A client component must not import server code, Prisma or the Temporal client: call a server action or take the data as props (types are fine: import type).",
    },
  ],
};

// Pages and routes reach the database through lib/<domain>/server, never through Prisma itself.
const appRestrictions = {
  patterns: [
    {
      group: ["**/lib/db/prisma", "@/lib/db/prisma", "**/lib/db/generated/**", "@/lib/db/generated/*", "@prisma/*"],
      message: "app reaches the database only through lib/<domain>/server: put the query there.",
    },
  ],
};

// The directive may follow comments, nothing else.
const USE_CLIENT = /^(?:\s*(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*["']use client["']/;

/** Files under `dirs` whose first statement is "use client" (the browser side of the App Router). */
function clientComponentFiles(...dirs) {
  const found = [];
  const visit = (dir) => {
    for (const entry of fs.readdirSync(path.join(import.meta.dirname, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) visit(relative);
      else if (/\.tsx?$/.test(entry.name) && USE_CLIENT.test(fs.readFileSync(path.join(import.meta.dirname, relative), "utf8"))) found.push(relative.replace(/[[\]()*?{}!+@]/g, "\\$&")); // literal path, not a glob
    }
  };
  for (const dir of dirs) visit(dir);
  return found;
}

// Where no React code lives (no JSX outside .tsx, no hooks: checked by the last block below), React's rules have
// nothing to find, and its compiler-based ones still analyse every function: a sixth of the lint's time.
const NO_REACT = ["worker/**/*.ts", "scripts/**/*.ts", "bench/**/*.ts", "e2e/**/*.ts", "prisma/**/*.ts", "lib/**/*.ts"];
const reactRulesOff = (configs) =>
  Object.fromEntries(configs.flatMap((config) => Object.keys(config.rules ?? {})).filter((rule) => /^(react|react-hooks|jsx-a11y)\//.test(rule)).map((rule) => [rule, "off"]));

export default tseslint.config(
  {
    ignores: [".next/**", "node_modules/**", ".data/**", ".tools/**", "lib/db/generated/**", "prisma/.generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  ...nextVitals,
  ...nextTypescript,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": true, "ts-nocheck": true, "ts-expect-error": "allow-with-description" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    ignores: TESTS,
    rules: { "no-restricted-imports": ["error", libRestrictions] },
  },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    ignores: TESTS,
    rules: { "no-restricted-imports": ["error", appRestrictions] },
  },
  {
    files: ["components/**/*.ts", "components/**/*.tsx", "app/**/*-client.tsx", ...clientComponentFiles("app", "components")],
    ignores: TESTS,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", clientRestrictions] },
  },
  {
    files: ["worker/workflows/**/*.ts"],
    rules: { "no-restricted-imports": ["error", workflowRestrictions] },
  },
  {
    // A spec's pages must wait for hydration after each navigation, or a click can land before React listens.
    files: ["e2e/**/*.spec.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "@playwright/test", importNames: ["test", "expect"], message: "Import test and expect from ./fixtures: its pages wait for React's hydration after every navigation (e2e/hydration.ts)." }] },
      ],
    },
  },
  {
    files: NO_REACT,
    rules: reactRulesOff(nextVitals),
  },
  {
    // What the block above relies on: a hook or JSX there would go unchecked, so importing React is refused.
    files: NO_REACT,
    ignores: ["lib/auth/server/session.ts"],
    // no-restricted-syntax, not no-restricted-imports: a rule configured again replaces the layers' settings above.
    rules: { "no-restricted-syntax": ["error", { selector: "ImportDeclaration[source.value=/^react(-dom)?(\\u002F|$)/]", message: "React code lives in components/ or app/ (or a .tsx file): React's lint rules are off here." }] },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
