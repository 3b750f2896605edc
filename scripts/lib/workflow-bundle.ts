import path from "node:path";
import { PROJECT_ROOT } from "./run";

/** Where `npm start` / `npm run build` write the prebuilt workflow bundle. */
export const WORKFLOW_BUNDLE_PATH = path.join(PROJECT_ROOT, ".next", "workflow-bundle.js");

/** Files whose change makes the bundle stale: every folder workflow code loads (scripts/architecture.test.ts checks it). */
export const WORKFLOW_BUNDLE_INPUTS = ["worker/workflows", "lib/agents", "lib/engine", "lib/contract", "lib/policy", "lib/temporal", "lib/tools", "lib/tapes", "package-lock.json"];
