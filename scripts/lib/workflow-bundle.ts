import path from "node:path";
import { PROJECT_ROOT } from "./run";

/** Where `npm start` / `npm run build` write the prebuilt workflow bundle. */
export const WORKFLOW_BUNDLE_PATH = path.join(PROJECT_ROOT, ".next", "workflow-bundle.js");

/** Files whose change makes the bundle stale. */
export const WORKFLOW_BUNDLE_INPUTS = ["worker/workflows", "lib/agents", "lib/engine", "lib/contract", "lib/temporal", "package-lock.json"];
