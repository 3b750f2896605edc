import "server-only";
// The designer's reads and writes of agent graphs. Every graph is validated on
// the way in and on the way out; a save names the version it started from and
// is refused when someone saved in between, so nobody overwrites anybody.
import type { Db } from "../../db/prisma";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import type { AuditAction } from "../../audit/actions";
import { ConflictError, ValidationError } from "../../errors";
// The launcher and the engine client say the same sentence for a missing saved agent.
import { AgentNotFound } from "../errors";
import { DEMO_AGENT_GRAPHS } from "../demo";
import { NOT_DRAFT, requireValidGraph } from "../repository";
import { loadableLegacyGraph, validateAgentGraph } from "../validate";
import { requireRegisteredServers } from "../mcp-references";
import { importGraphJson } from "../graph-json";
import type { AgentGraph, AgentGraphInput } from "../schemas";
import type { AgentSummary, StoredVersion, VersionSummary } from "../designer-schemas";

interface Author {
  id: string;
}

/** How a new agent came to be, for its audit row. */
interface Origin {
  action: Extract<AuditAction, "agent.created" | "agent.imported" | "agent.duplicated">;
  details?: Record<string, unknown>;
}

const versionInclude = { createdBy: { select: { name: true, email: true } } } as const;

/** Reads a stored graph, refusing one that no longer validates (so nothing invalid reaches an editor or a run). */
export function readStoredGraph(json: string, where: string): AgentGraph {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ValidationError([{ path: "(root)", message: "the stored graph is not JSON" }], `${where} is damaged`);
  }
  const result = validateAgentGraph(raw);
  // A legacy version with inline MCP servers still opens (so an admin can register them); saving or running it is refused.
  const graph = loadableLegacyGraph(result);
  if (!graph) throw new ValidationError(result.errors, `${where} does not pass validation`);
  return withoutLegacySecrets(graph);
}

/** What a legacy inline server's environment value or URL secret reads as once it left the database. */
export const REDACTED = "(redacted: register this server to set its secrets)";

/**
 * Legacy versions may hold secrets an earlier builder typed into an inline server
 * (environment values, credentials or a query in its URL). Every reader of a
 * version — viewers included — gets them blanked: the registry is the only place
 * secrets live now, sealed.
 */
function withoutLegacySecrets(graph: AgentGraph): AgentGraph {
  if (!graph.agents.some((a) => a.mcpServers.some((m) => m.transport))) return graph;
  return {
    ...graph,
    agents: graph.agents.map((agent) => ({
      ...agent,
      mcpServers: agent.mcpServers.map((server) => {
        const transport = server.transport;
        if (!transport) return server;
        if (transport.type === "stdio") {
          const env = transport.env ? Object.fromEntries(Object.keys(transport.env).map((k) => [k, REDACTED])) : undefined;
          return { ...server, transport: { ...transport, ...(env ? { env } : {}) } };
        }
        const url = new URL(transport.url);
        const secretive = url.username || url.password || url.search;
        url.username = "";
        url.password = "";
        url.search = "";
        return secretive ? { ...server, transport: { ...transport, url: url.toString() } } : server;
      }),
    })),
  };
}

/** Every agent graph with its default version (and its newest draft, when newer), newest first. */
export async function listAgents(db: Db): Promise<AgentSummary[]> {
  const agents = await db.agent.findMany({
    orderBy: { updatedAt: "desc" },
    include: { versions: { where: NOT_DRAFT, orderBy: { version: "desc" }, take: 1, include: versionInclude } },
  });
  const drafts = await db.agentVersion.groupBy({ by: ["agentId"], where: { draft: true }, _max: { version: true } });
  const newestDraft = new Map(drafts.map((d) => [d.agentId, d._max.version]));
  return Promise.all(
    agents.map(async (agent) => {
      const latest = agent.versions[0];
      const draft = newestDraft.get(agent.id) ?? null;
      const lastRun = await db.run.findFirst({ where: { graphName: agent.name, parentRunId: null }, orderBy: { startedAt: "desc" }, select: { status: true } });
      let entryAgent: string | null = null;
      let agentCount = 0;
      let invalid: string | null = null;
      try {
        const graph = latest ? readStoredGraph(latest.graph, `${agent.name} v${latest.version}`) : null;
        entryAgent = graph?.entryAgent ?? null;
        agentCount = graph?.agents.length ?? 0;
      } catch (error) {
        invalid = error instanceof ValidationError ? error.userMessage : "unreadable";
      }
      return {
        name: agent.name,
        description: agent.description,
        entryAgent,
        agentCount,
        latestVersion: latest?.version ?? 0,
        newestDraft: draft !== null && draft > (latest?.version ?? 0) ? draft : null,
        lastRunStatus: lastRun?.status ?? null,
        updatedBy: latest?.createdBy?.name ?? (latest ? "seed" : null),
        updatedAt: (latest?.createdAt ?? agent.updatedAt).toISOString(),
        archived: agent.archivedAt !== null,
        invalid,
      };
    }),
  );
}

async function agentOrThrow(db: Db, name: string) {
  const agent = await db.agent.findUnique({ where: { name } });
  if (!agent) throw new AgentNotFound(name);
  return agent;
}

/** The history of an agent graph, newest first, with how many runs each version had. */
export async function listVersions(db: Db, name: string): Promise<VersionSummary[]> {
  const agent = await agentOrThrow(db, name);
  const versions = await db.agentVersion.findMany({ where: { agentId: agent.id }, orderBy: { version: "desc" }, include: versionInclude });
  const counts = await db.run.groupBy({ by: ["agentVersionId"], where: { agentVersionId: { in: versions.map((v) => v.id) } }, _count: { _all: true } });
  const runs = new Map(counts.map((c) => [c.agentVersionId, c._count._all]));
  const current = versions.find((v) => !v.draft)?.version ?? null;
  return versions.map((v) => summaryOf(v, runs.get(v.id) ?? 0, current));
}

type VersionRow = { version: number; note: string; createdAt: Date; restoredFrom: number | null; draft: boolean; promotedAt: Date | null; createdBy: { name: string } | null };

/** A version row as the designer and the API list it; `current` is the graph's default version. */
function summaryOf(v: VersionRow, runs: number, current: number | null): VersionSummary {
  return {
    version: v.version,
    author: v.createdBy?.name ?? null,
    message: v.note,
    createdAt: v.createdAt.toISOString(),
    restoredFrom: v.restoredFrom,
    runs,
    draft: v.draft,
    promotedAt: v.promotedAt?.toISOString() ?? null,
    isDefault: v.version === current,
  };
}

/** One version with its graph (validated as it is read); without a number, the graph's default version (never a draft). */
export async function getVersion(db: Db, name: string, version?: number): Promise<StoredVersion & { description: string; archived: boolean }> {
  const agent = await agentOrThrow(db, name);
  const row = await db.agentVersion.findFirst({
    where: { agentId: agent.id, ...(version === undefined ? NOT_DRAFT : { version }) },
    orderBy: { version: "desc" },
    include: versionInclude,
  });
  if (!row) throw new AgentNotFound(name, version);
  const [runs, current] = await Promise.all([
    db.run.count({ where: { agentVersionId: row.id } }),
    version === undefined ? { version: row.version } : db.agentVersion.findFirst({ where: { agentId: agent.id, ...NOT_DRAFT }, orderBy: { version: "desc" }, select: { version: true } }),
  ]);
  return {
    ...summaryOf(row, runs, current?.version ?? null),
    graph: readStoredGraph(row.graph, `${name} v${row.version}`),
    description: agent.description,
    archived: agent.archivedAt !== null,
  };
}

/**
 * Appends a version on top of `baseVersion`. When a version that is not a draft
 * was saved after the base, someone changed the default in between: refused
 * with a conflict naming them. Drafts never conflict (they change no default),
 * and a draft saved on top of the default takes the next free number without
 * becoming the default (`draft`: the playground's "Save as draft"). Two saves
 * racing on the same base both read it; the (agent, version) key lets one
 * insert, and the other's re-run then sees the new version and is refused (or,
 * for a draft, takes the number after it).
 */
export async function appendVersion(
  db: Db,
  name: string,
  input: { baseVersion: number; graph: unknown; message: string; restoredFrom?: number; draft?: boolean },
  author: Author,
): Promise<VersionSummary> {
  const graph = requireValidGraph(input.graph);
  await requireRegisteredServers(db, graph);
  const draft = input.draft === true;
  return writeTransaction(
    db,
    async (tx) => {
      const agent = await tx.agent.findUnique({ where: { name } });
      if (!agent) throw new AgentNotFound(name);
      const [last, current] = await Promise.all([
        tx.agentVersion.findFirst({ where: { agentId: agent.id }, orderBy: { version: "desc" }, select: { version: true } }),
        tx.agentVersion.findFirst({ where: { agentId: agent.id, ...NOT_DRAFT }, orderBy: { version: "desc" }, include: versionInclude }),
      ]);
      const newest = last?.version ?? 0;
      const published = current?.version ?? 0;
      if (published > input.baseVersion || input.baseVersion > newest) {
        const who = current?.createdBy?.name ?? "someone";
        const when = current ? (current.promotedAt ?? current.createdAt).toISOString().replace("T", " ").slice(0, 16) : "";
        throw new ConflictError(
          input.baseVersion > newest
            ? `Not saved: there is no version ${input.baseVersion} to start from (the newest is v${newest}). Nothing was overwritten.`
            : `Not saved: ${who} saved version ${published} at ${when} UTC after version ${input.baseVersion} that you started from. Nothing was overwritten and your draft is kept; compare and save again on top of v${published}.`,
        );
      }
      const row = await tx.agentVersion.create({
        data: { agentId: agent.id, version: newest + 1, graph: JSON.stringify(graph), createdById: author.id, note: input.message, restoredFrom: input.restoredFrom ?? null, draft },
        include: versionInclude,
      });
      await tx.agent.update({ where: { id: agent.id }, data: { updatedAt: new Date() } });
      await appendAuditInTransaction(tx, {
        actorId: author.id,
        action: input.restoredFrom === undefined ? "agent.version_saved" : "agent.version_restored",
        target: name,
        details: { version: row.version, ...(input.restoredFrom === undefined ? {} : { restoredFrom: input.restoredFrom }), ...(draft ? { draft: true } : {}) },
      });
      return summaryOf(row, 0, draft ? published : row.version);
    },
    { retryOnUniqueViolation: true },
  );
}

/**
 * Promotes a draft: it becomes the graph's default version (what every run,
 * dialog and form without a version number takes). Refused when the version
 * is no draft, and when a version that is not a draft was saved after it: the
 * default would go back in time and drop that version's changes (restore the
 * draft instead, which saves its graph as the newest version). Audited
 * agent.version_promoted with the default it replaces.
 */
export async function promoteVersion(db: Db, name: string, version: number, actor: Author): Promise<VersionSummary> {
  return writeTransaction(db, async (tx) => {
    const agent = await tx.agent.findUnique({ where: { name } });
    if (!agent) throw new AgentNotFound(name);
    const row = await tx.agentVersion.findFirst({ where: { agentId: agent.id, version }, include: versionInclude });
    if (!row) throw new AgentNotFound(name, version);
    if (!row.draft) throw new ConflictError(`Version ${version} is not a draft${row.promotedAt ? ` (it was promoted at ${row.promotedAt.toISOString().replace("T", " ").slice(0, 16)} UTC)` : ""}: there is nothing to promote.`);
    const current = await tx.agentVersion.findFirst({ where: { agentId: agent.id, ...NOT_DRAFT }, orderBy: { version: "desc" }, select: { version: true } });
    if (current && current.version > version) {
      throw new ConflictError(`Not promoted: version ${current.version} was saved after draft ${version} and is the default. Promoting the draft would drop its changes; restore v${version} to save its graph as the newest version instead.`);
    }
    const promoted = await tx.agentVersion.update({ where: { id: row.id }, data: { draft: false, promotedAt: new Date() }, include: versionInclude });
    await tx.agent.update({ where: { id: agent.id }, data: { updatedAt: new Date() } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "agent.version_promoted", target: name, details: { version, previousDefault: current?.version ?? null } });
    const runs = await tx.run.count({ where: { agentVersionId: row.id } });
    return summaryOf(promoted, runs, version);
  });
}

/** Creates an agent with its first version; the name must be free. Audited in the same transaction ("agent.created" unless `origin` says otherwise). */
export async function createAgent(
  db: Db,
  name: string,
  description: string,
  graph: AgentGraphInput,
  author: Author,
  message: string,
  origin: Origin = { action: "agent.created" },
): Promise<VersionSummary> {
  const valid = requireValidGraph(graph);
  await requireRegisteredServers(db, valid);
  return writeTransaction(db, async (tx) => {
    if (await tx.agent.findUnique({ where: { name } })) throw new ConflictError(`An agent named "${name}" already exists`);
    const agent = await tx.agent.create({ data: { name, description } });
    const row = await tx.agentVersion.create({ data: { agentId: agent.id, version: 1, graph: JSON.stringify(valid), createdById: author.id, note: message }, include: versionInclude });
    await appendAuditInTransaction(tx, { actorId: author.id, action: origin.action, target: name, details: { version: 1, ...origin.details } });
    return summaryOf(row, 0, 1);
  });
}

/** The graph a new agent starts from: one blank agent, or a demo template. */
export function templateGraph(template: string): AgentGraphInput {
  if (template === "blank") return { entryAgent: "main", agents: [{ name: "main" }], layout: { nodes: { "agent:main": { x: 0, y: 0 } } } };
  const demo = DEMO_AGENT_GRAPHS.find((d) => d.name === template);
  if (!demo) throw new ValidationError([{ path: "template", message: `no template named "${template}"` }]);
  return demo.graph;
}

/** Imports JSON text as a new agent; problems come back with their paths. */
export async function importAgent(db: Db, name: string, description: string, json: string, author: Author): Promise<VersionSummary> {
  const result = importGraphJson(json);
  if (!result.ok) throw new ValidationError(result.errors.map((e) => ({ path: e.path, message: e.message })), "The file is not a valid agent graph");
  return createAgent(db, name, description, result.graph, author, "Imported", { action: "agent.imported" });
}

/** Copies an agent's newest version into a new agent (audited as a duplicate of its source). */
export async function duplicateAgent(db: Db, name: string, newName: string, author: Author): Promise<VersionSummary> {
  const source = await getVersion(db, name);
  return createAgent(db, newName, source.description, source.graph, author, `Duplicated from ${name} v${source.version}`, {
    action: "agent.duplicated",
    details: { from: name, fromVersion: source.version },
  });
}

/** Archives or unarchives an agent, audited with the person who did it. */
export async function setArchived(db: Db, name: string, archived: boolean, actor: Author): Promise<void> {
  await writeTransaction(db, async (tx) => {
    const agent = await tx.agent.findUnique({ where: { name } });
    if (!agent) throw new AgentNotFound(name);
    await tx.agent.update({ where: { id: agent.id }, data: { archivedAt: archived ? new Date() : null } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: archived ? "agent.archived" : "agent.unarchived", target: name });
  });
}

/** Makes an old version the newest (a new version with its graph); refused like a save when the base is stale. */
export async function restoreVersion(db: Db, name: string, version: number, baseVersion: number, author: Author): Promise<VersionSummary> {
  const old = await getVersion(db, name, version);
  return appendVersion(db, name, { baseVersion, graph: old.graph, message: `Restored v${version}`, restoredFrom: version }, author);
}
