"use client";
import { useMemo, useState, useTransition } from "react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import type { AgentSummary } from "@/lib/agents/designer-schemas";
import type { ActionResult } from "@/lib/http/server/action";
import type { ErrorBody } from "@/lib/errors";
import { createAgentAction } from "@/lib/actions/create-agent";
import { duplicateAgentAction } from "@/lib/actions/duplicate-agent";
import { archiveAgentAction } from "@/lib/actions/archive-agent";
import { importAgentAction } from "@/lib/actions/import-agent";
import { Input, Label, Select } from "@/components/ui/input";
import { Button } from "@/components/ui/button";
import { RunDialog } from "@/components/runs/run-dialog";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { plural } from "@/lib/text/plural";
import { DateTime } from "@/components/ui/date-time";

function ErrorList({ error }: { error: ErrorBody }) {
  return (
    <Alert tone="error">
      {error.message}
      {error.issues?.length ? (
        <ul className="mt-1 list-disc pl-5" data-testid="error-issues">
          {error.issues.map((i) => (
            <li key={`${i.path}:${i.message}`}>
              <code>{i.path}</code>: {i.message}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}

/** Create (blank / template / import) form. */
function CreateAgent({ templates, onDone }: { templates: { name: string; description: string }[]; onDone: (name: string) => void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [source, setSource] = useState("blank");
  const [json, setJson] = useState("");
  const [error, setError] = useState<ErrorBody | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    startTransition(async () => {
      const result: ActionResult<unknown> =
        source === "import" ? await importAgentAction({ name, description, json }) : await createAgentAction({ name, description, template: source });
      if (result.ok) onDone(name);
      else setError(result.error);
    });
  }

  async function readFile(file: File | undefined) {
    if (file) setJson(await file.text());
  }

  return (
    <form onSubmit={submit} className="space-y-3 p-4" aria-label="New agent">
      <div className="grid gap-3 md:grid-cols-3">
        <div>
          <Label htmlFor="new-agent-name">Name</Label>
          <Input id="new-agent-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="support-bot" required />
        </div>
        <div>
          <Label htmlFor="new-agent-description">Description</Label>
          <Input id="new-agent-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="new-agent-source">Start from</Label>
          <Select id="new-agent-source" value={source} onChange={(e) => setSource(e.target.value)}>
            <option value="blank">Blank graph</option>
            {templates.map((t) => (
              <option key={t.name} value={t.name} title={t.description}>
                Template: {t.name}
              </option>
            ))}
            <option value="import">Import JSON…</option>
          </Select>
        </div>
      </div>
      {source === "import" ? (
        <div className="space-y-2">
          <Label htmlFor="import-file">JSON file</Label>
          <input id="import-file" type="file" accept="application/json,.json" onChange={(e) => void readFile(e.target.files?.[0])} className="text-sm" />
          <textarea
            aria-label="Graph JSON"
            value={json}
            onChange={(e) => setJson(e.target.value)}
            rows={6}
            className="block w-full rounded-md p-2 font-mono text-xs ring-1 ring-zinc-300"
            placeholder='{"entryAgent": "main", "agents": [{"name": "main"}]}'
          />
        </div>
      ) : null}
      {error ? <ErrorList error={error} /> : null}
      <Button type="submit" disabled={pending || !name}>
        {source === "import" ? "Import" : "Create"}
      </Button>
    </form>
  );
}

export function AgentsList({ agents, canEdit, templates }: { agents: AgentSummary[]; canEdit: boolean; templates: { name: string; description: string }[] }) {
  const router = useRouter();
  const [query, setQuery] = useState("");
  const [showArchived, setShowArchived] = useState(false);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<ErrorBody | null>(null);
  const [pending, startTransition] = useTransition();

  const visible = useMemo(() => {
    const q = query.trim().toLowerCase();
    return agents.filter((a) => (showArchived || !a.archived) && (!q || `${a.name} ${a.description} ${a.entryAgent ?? ""}`.toLowerCase().includes(q)));
  }, [agents, query, showArchived]);

  function run(action: () => Promise<ActionResult<unknown>>) {
    startTransition(async () => {
      const result = await action();
      if (result.ok) {
        setError(null);
        router.refresh();
      } else setError(result.error);
    });
  }

  function duplicate(name: string) {
    const newName = window.prompt(`Name of the copy of ${name}`, `${name}-copy`);
    if (newName) run(() => duplicateAgentAction({ name, newName }));
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <Input aria-label="Search agents" placeholder="Search agents" value={query} onChange={(e) => setQuery(e.target.value)} className="max-w-xs" />
        <label className="flex items-center gap-2 text-sm text-zinc-700">
          <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} /> Show archived
        </label>
        {canEdit ? (
          <Button className="ml-auto" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
            New agent
          </Button>
        ) : null}
      </div>
      {creating ? (
        <Card>
          <CreateAgent templates={templates} onDone={(name) => router.push(`/agents/${encodeURIComponent(name)}`)} />
        </Card>
      ) : null}
      {error ? <ErrorList error={error} /> : null}
      {visible.length === 0 ? (
        <EmptyState title={agents.length ? "No agent matches" : "No agents yet"}>
          {canEdit ? "Create one from a blank graph or a demo template, or import a JSON export." : "Builders design agents here. Ask an admin for the builder role if you need to create one."}
        </EmptyState>
      ) : (
        <Card>
          <table className="min-w-full divide-y divide-zinc-200 text-sm">
            <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
              <tr>
                <th className="px-4 py-3">Agent graph</th>
                <th className="px-4 py-3">Entry agent</th>
                <th className="px-4 py-3">Version</th>
                <th className="px-4 py-3">Last run</th>
                <th className="px-4 py-3">Updated</th>
                {canEdit ? <th className="px-4 py-3">Actions</th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {visible.map((a) => (
                <tr key={a.name} data-testid={`agent-row-${a.name}`}>
                  <td className="px-4 py-3">
                    <Link href={`/agents/${encodeURIComponent(a.name)}`} className="font-medium text-indigo-700 hover:underline">
                      {a.name}
                    </Link>
                    {a.archived ? <Badge className="ml-2">archived</Badge> : null}
                    {a.invalid ? <Badge tone="danger" className="ml-2">invalid</Badge> : null}
                    <p className="max-w-md truncate text-zinc-500">{a.description}</p>
                  </td>
                  <td className="px-4 py-3 text-zinc-700">
                    {a.entryAgent ?? "—"} <span className="text-zinc-400">({plural(a.agentCount, "agent")})</span>
                  </td>
                  <td className="px-4 py-3">
                    v{a.latestVersion}
                    {a.newestDraft ? <span className="ml-1 text-xs text-amber-800">(draft v{a.newestDraft})</span> : null}
                  </td>
                  <td className="px-4 py-3">{a.lastRunStatus ? <Badge tone={a.lastRunStatus === "completed" ? "success" : a.lastRunStatus === "failed" ? "danger" : "info"}>{a.lastRunStatus}</Badge> : <span className="text-zinc-400">never run</span>}</td>
                  <td className="px-4 py-3 text-zinc-600">
                    {a.updatedBy ?? "—"} · <DateTime value={a.updatedAt} />
                  </td>
                  {canEdit ? (
                    <td className="space-x-1 px-4 py-3">
                      <RunDialog agent={a.name} label="Run" ariaLabel={`Run ${a.name}`} variant="ghost" />
                      <Button variant="ghost" disabled={pending} onClick={() => duplicate(a.name)} aria-label={`Duplicate ${a.name}`}>
                        Duplicate
                      </Button>
                      <Button variant="ghost" disabled={pending} onClick={() => run(() => archiveAgentAction({ name: a.name, archived: !a.archived }))} aria-label={`${a.archived ? "Unarchive" : "Archive"} ${a.name}`}>
                        {a.archived ? "Unarchive" : "Archive"}
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </div>
  );
}
