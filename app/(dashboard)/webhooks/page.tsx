import type { Metadata } from "next";
import { headers } from "next/headers";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { getConfig } from "@/lib/config/server/config";
import { webhooks } from "@/lib/webhooks/server/web";
import { launchableAgents } from "@/lib/runs/server/launch";
import { PageHeader } from "@/components/ui/page-header";
import { GraphFilterNote, triggersPreset } from "@/components/triggers/graph-filter";
import { WebhooksPage } from "./webhooks-client";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

/** The origin senders reach: AUTH_URL's when set (the documented setting behind a proxy), else the request's host. */
async function appOrigin(): Promise<string> {
  const configured = getConfig().auth.url;
  if (configured) return new URL(configured).origin;
  const h = await headers();
  return `${h.get("x-forwarded-proto") ?? "http"}://${h.get("host") ?? "localhost"}`;
}

export default async function WebhooksRoute({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser("read");
  const canManage = can(user.role, "runs:launch");
  const preset = triggersPreset(await searchParams);
  const [list, graphs, origin] = await Promise.all([webhooks.list(preset?.graph), canManage ? launchableAgents() : Promise.resolve([]), appOrigin()]);
  const deliveries = Object.fromEntries(await Promise.all(list.map(async (w) => [w.id, (await webhooks.deliveries(w.id)).slice(0, 10)] as const)));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="An inbound webhook starts a run of a saved agent when another system sends a signed request to its URL, as the endpoint's owner; a repeated delivery (same Idempotency-Key) starts no second run. Every delivery is listed with what came of it. How to sign a request: docs/webhooks.md."
      />
      {preset ? <GraphFilterNote graph={preset.graph} allHref="/webhooks" what="webhook endpoints" /> : null}
      <WebhooksPage webhooks={list} deliveries={deliveries} graphs={graphs} origin={origin} canManage={canManage} preset={preset ?? undefined} />
    </>
  );
}
