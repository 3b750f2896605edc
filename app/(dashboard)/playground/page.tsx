import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { getConfig } from "@/lib/config/server/config";
import { catalogOptions } from "@/lib/models/catalog";
import { MODEL_ID_PATTERN } from "@/lib/agents/schemas";
import { loadPlaygroundSchema } from "@/lib/playground/schemas";
import { PageHeader } from "@/components/ui/page-header";
import { PlaygroundClient, type PlaygroundOpen } from "./playground-client";

export const metadata: Metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The recorded call the URL names (`?run=&span=`), or why the link names none. The call itself is opened by the
 * client through its action (a POST: audited, counted per user): opening one starts a workflow that describes the
 * agent's tools, which rendering or prefetching a page must not do.
 */
function callFromUrl(searchParams: SearchParams): { open: PlaygroundOpen | null; problem: string | null } {
  if (searchParams.run === undefined && searchParams.span === undefined) return { open: null, problem: null };
  const parsed = loadPlaygroundSchema.safeParse({ runId: searchParams.run, spanId: searchParams.span });
  if (!parsed.success) return { open: null, problem: "The link names no model call: it needs ?run=<run id>&span=<span id>." };
  return { open: parsed.data, problem: null };
}

export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePageUser("read");
  const { open, problem } = callFromUrl(await searchParams);
  const config = getConfig();
  // The catalogue's suggestions: the demo models and the priced ones (the client adds the call's own).
  const models = [...new Set(["demo/assistant", "demo/vision", ...Object.keys(config.models.prices).filter((m) => MODEL_ID_PATTERN.test(m))])];
  return (
    <>
      <PageHeader
        title="Playground"
        description="One model call at a time: edit the conversation, the system prompt, the model or the temperature and run it again. No run is created and no tool runs — the tool calls the model proposes are shown, not executed."
      />
      <PlaygroundClient
        key={open ? `${open.runId}/${open.spanId}` : "blank"}
        open={open}
        problem={problem}
        models={models}
        catalog={catalogOptions(config)}
        canRun={can(user.role, "runs:launch")}
        canSave={can(user.role, "agents:edit")}
      />
    </>
  );
}
