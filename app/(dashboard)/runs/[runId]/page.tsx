import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { RunNotFound } from "@/lib/engine/errors";
import { runHeader, runMarkers } from "@/lib/runs/server/runs";
import { RunClient } from "./run-client";

export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params, searchParams }: { params: Promise<{ runId: string }>; searchParams: Promise<{ poll?: string }> }) {
  const user = await requirePageUser();
  const { runId: raw } = await params;
  const runId = decodeURIComponent(raw);
  const header = await runHeader(runId).catch((error: unknown) => {
    if (error instanceof RunNotFound) notFound();
    throw error;
  });
  const markers = await runMarkers(runId);
  const poll = Number((await searchParams).poll);
  return <RunClient initialHeader={header} markers={markers} canLaunch={can(user.role, "runs:launch")} canDecide={can(user.role, "approvals:decide")} pollMs={Number.isFinite(poll) && poll >= 200 ? poll : 1000} />;
}
