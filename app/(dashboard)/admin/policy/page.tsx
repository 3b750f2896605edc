import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { getWorkspacePolicy } from "@/lib/policy/server/policy";
import { PageHeader } from "@/components/ui/page-header";
import { PolicyEditor } from "./policy-client";

export const metadata: Metadata = { title: "Approval policy" };
export const dynamic = "force-dynamic";

export default async function PolicyPage() {
  await requirePageUser("policy:manage");
  const view = await getWorkspacePolicy();
  return (
    <>
      <PageHeader
        title="Approval policy"
        description="Floors every agent's approval rules must meet, and the tools exempt from approval by default. Side-effecting built-ins and every MCP tool need approval unless exempted here; graph rules can only add. A run keeps the policy it started with."
      />
      <PolicyEditor initial={view} />
    </>
  );
}
