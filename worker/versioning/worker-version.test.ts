import { describe, expect, it } from "vitest";
import { parseEnv } from "../../lib/config/env";
import { pinnedDeploymentOptions, workerVersionFor, workflowBundleBuildId } from "./worker-version";

const ROOT = "/srv/zap";

function versioningOf(env: Record<string, string>) {
  return parseEnv(env, ROOT).temporal.workerVersioning;
}

describe("worker versions", () => {
  it("is off unless ZAP_WORKER_VERSIONING turns it on (one npm start worker has no older build to drain onto)", () => {
    expect(versioningOf({})).toBeNull();
    expect(versioningOf({ ZAP_WORKER_VERSIONING: "true" })).toEqual({ deploymentName: "zap-agents", buildId: null, promote: "if-none" });
  });

  it("names the deployment after the task queue, without the dot Temporal uses between name and build id", () => {
    expect(versioningOf({ ZAP_WORKER_VERSIONING: "true", TEMPORAL_TASK_QUEUE: "zap.eu-1" })?.deploymentName).toBe("zap-eu-1");
    expect(versioningOf({ ZAP_WORKER_VERSIONING: "true", ZAP_WORKER_DEPLOYMENT: "agents" })?.deploymentName).toBe("agents");
    expect(() => versioningOf({ ZAP_WORKER_VERSIONING: "true", ZAP_WORKER_DEPLOYMENT: "zap.agents" })).toThrow(/ZAP_WORKER_DEPLOYMENT/);
    expect(() => versioningOf({ ZAP_WORKER_PROMOTE: "sometimes" })).toThrow(/ZAP_WORKER_PROMOTE/);
  });

  it("derives the build id from the workflow code: the same code the same id, any change a new one", () => {
    const code = "export function agentRunWorkflow() {}";
    expect(workflowBundleBuildId(code)).toBe(workflowBundleBuildId(code));
    expect(workflowBundleBuildId(code)).toMatch(/^wf-[0-9a-f]{16}$/);
    expect(workflowBundleBuildId(`${code} `)).not.toBe(workflowBundleBuildId(code));
  });

  it("takes ZAP_WORKER_BUILD_ID over the hash, and pins runs to the version", () => {
    const configured = versioningOf({ ZAP_WORKER_VERSIONING: "true", ZAP_WORKER_BUILD_ID: "git-3f9c2e1" });
    if (!configured) throw new Error("versioning is on");
    const version = workerVersionFor(configured, "any code");
    expect(version).toEqual({ deploymentName: "zap-agents", buildId: "git-3f9c2e1" });
    expect(pinnedDeploymentOptions(version)).toEqual({ useWorkerVersioning: true, version, defaultVersioningBehavior: "PINNED" });
  });
});
