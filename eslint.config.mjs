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
    files: ["worker/workflows/**/*.ts"],
    rules: { "no-restricted-imports": ["error", workflowRestrictions] },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
