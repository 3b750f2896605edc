// Bundles the workflow code once at build time (as Temporal recommends for
// production), so workers start without running webpack.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { bundleWorkflowCode } from "@temporalio/worker";
import { PROJECT_ROOT } from "./lib/run";
import { WORKFLOW_BUNDLE_PATH } from "./lib/workflow-bundle";

export async function buildWorkflowBundle(): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.join(PROJECT_ROOT, "worker", "workflows", "index.ts"),
    logger: { info() {}, warn: console.warn, error: console.error, debug() {}, trace() {}, log() {} },
  });
  await mkdir(path.dirname(WORKFLOW_BUNDLE_PATH), { recursive: true });
  await writeFile(WORKFLOW_BUNDLE_PATH, code);
  return WORKFLOW_BUNDLE_PATH;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`workflow bundle written to ${path.relative(PROJECT_ROOT, await buildWorkflowBundle())}`);
}
