import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fingerprint } from "./fingerprint";
import { PROJECT_ROOT } from "./run";

/** Where `npm start` / `npm run build` write the prebuilt workflow bundle. */
export const WORKFLOW_BUNDLE_PATH = path.join(PROJECT_ROOT, ".next", "workflow-bundle.js");

/** Beside the bundle: the fingerprint of the inputs it was made from. */
const WORKFLOW_BUNDLE_STAMP = `${WORKFLOW_BUNDLE_PATH}.fingerprint`;

/** Files whose change makes the bundle stale: every folder workflow code loads (scripts/architecture.test.ts checks it). */
export const WORKFLOW_BUNDLE_INPUTS = ["worker/workflows", "lib/agents", "lib/engine", "lib/contract", "lib/policy", "lib/temporal", "lib/tools", "lib/tapes", "lib/guardrails", "lib/json-schema", "package-lock.json"];

/** The fingerprint of the workflow code as it is now in the checkout. */
export function workflowBundleFingerprint(): string {
  return fingerprint(PROJECT_ROOT, WORKFLOW_BUNDLE_INPUTS);
}

/** The prebuilt bundle's path when it was made from the checkout's workflow code as it is now, else null. */
export function currentWorkflowBundle(print = workflowBundleFingerprint()): string | null {
  if (!existsSync(WORKFLOW_BUNDLE_PATH) || !existsSync(WORKFLOW_BUNDLE_STAMP)) return null;
  return readFileSync(WORKFLOW_BUNDLE_STAMP, "utf8") === print ? WORKFLOW_BUNDLE_PATH : null;
}

/** Records that the bundle at WORKFLOW_BUNDLE_PATH was made from the inputs whose fingerprint is `print`. */
export function stampWorkflowBundle(print: string): void {
  writeFileSync(WORKFLOW_BUNDLE_STAMP, print);
}

/**
 * Puts a bundle made by the same `bundleWorkflowCode` call from the same inputs (`print`, taken before it was
 * made) where `npm start` looks for it, so the next start does not run webpack again.
 */
export function adoptWorkflowBundle(bundleFile: string, print: string): void {
  mkdirSync(path.dirname(WORKFLOW_BUNDLE_PATH), { recursive: true });
  copyFileSync(bundleFile, WORKFLOW_BUNDLE_PATH);
  stampWorkflowBundle(print);
}
