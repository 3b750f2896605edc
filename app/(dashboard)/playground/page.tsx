import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { AppError } from "@/lib/errors";
import { getConfig } from "@/lib/config/server/config";
import { catalogOptions } from "@/lib/models/catalog";
import { MODEL_ID_PATTERN } from "@/lib/agents/schemas";
import { loadPlaygroundSchema, type PlaygroundCall } from "@/lib/playground/schemas";
import { loadPlaygroundOperation } from "@/lib/playground/server/operations";
import { PageHeader } from "@/components/ui/page-header";
import { PlaygroundClient } from "./playground-client";

export const metadata: Metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

/** The recorded call the URL names (`?run=&span=`), or why it cannot be opened. */
async function loadFromUrl(searchParams: SearchParams, user: Awaited<ReturnType<typeof requirePageUser>>): Promise<{ call: PlaygroundCall | null; problem: string | null }> {
  if (searchParams.run === undefined && searchParams.span === undefined) return { call: null, problem: null };
  const parsed = loadPlaygroundSchema.safeParse({ runId: searchParams.run, spanId: searchParams.span });
  if (!parsed.success) return { call: null, problem: "The link names no model call: it needs ?run=<run id>&span=<span id>." };
  try {
    return { call: await loadPlaygroundOperation.run({ input: parsed.data, user }), problem: null };
  } catch (error) {
    if (error instanceof AppError) return { call: null, problem: error.userMessage };
    throw error;
  }
}

export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePageUser("read");
  const { call, problem } = await loadFromUrl(await searchParams, user);
  const config = getConfig();
  // The catalogue's suggestions: the demo models, the priced ones, and the call's own.
  const models = [...new Set(["demo/assistant", "demo/vision", ...Object.keys(config.models.prices).filter((m) => MODEL_ID_PATTERN.test(m)), ...(call ? [call.model] : [])])];
  return (
    <>
      <PageHeader
        title="Playground"
        description="One model call at a time: edit the conversation, the system prompt, the model or the temperature and run it again. No run is created and no tool runs — the tool calls the model proposes are shown, not executed."
      />
      <PlaygroundClient
        key={call ? `${call.runId}/${call.spanId}` : "blank"}
        call={call}
        problem={problem}
        models={models}
        catalog={catalogOptions(config)}
        canRun={can(user.role, "runs:launch")}
        canSave={can(user.role, "agents:edit")}
      />
    </>
  );
}
