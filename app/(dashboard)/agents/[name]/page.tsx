import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { getDb } from "@/lib/db/server/db";
import { getConfig } from "@/lib/config/server/config";
import { getVersion, listVersions } from "@/lib/agents/server/store";
import { AGENT_NAME_PATTERN } from "@/lib/agents/schemas";
import { AgentNotFound } from "@/lib/agents/errors";
import type { ProviderOption } from "@/components/agents/model-picker";
import { EditorLoader } from "./editor-loader";

type Params = { params: Promise<{ name: string }>; searchParams?: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `${decodeURIComponent((await params).name)} · Agents` };
}

export default async function AgentEditorPage({ params, searchParams }: Params) {
  const user = await requirePageUser();
  const name = decodeURIComponent((await params).name);
  if (!AGENT_NAME_PATTERN.test(name)) notFound();
  // `?version=N` opens that version (a draft the playground links to); otherwise the default version.
  const asked = (await searchParams)?.version;
  const version = typeof asked === "string" && /^[1-9]\d{0,8}$/.test(asked) ? Number(asked) : undefined;
  const db = getDb();
  let latest;
  try {
    latest = await getVersion(db, name, version);
  } catch (error) {
    if (error instanceof AgentNotFound) notFound();
    throw error;
  }
  const versions = await listVersions(db, name);
  const { models } = getConfig();
  const providers: ProviderOption[] = [
    { id: "demo", available: true },
    { id: "openai", available: Boolean(models.openai.apiKey) },
    { id: "anthropic", available: Boolean(models.anthropic.apiKey) },
    { id: `openai-compatible/${models.openaiCompatible.name}`, available: Boolean(models.openaiCompatible.baseUrl) },
  ];
  return <EditorLoader name={name} saved={{ version: latest.version, graph: latest.graph }} versions={versions} canEdit={can(user.role, "agents:edit")} providers={providers} />;
}
