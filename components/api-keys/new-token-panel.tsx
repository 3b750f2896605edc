"use client";
import { useState } from "react";
import type { CreatedApiKey } from "@/lib/api-keys/schemas";
import { Button } from "@/components/ui/button";

/**
 * A new key's token, shown this once: the server keeps only its hash, and the
 * page holds it in memory until "Done" (never in storage, so a reload cannot show it).
 */
export function NewTokenPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");

  async function copyToken() {
    try {
      await navigator.clipboard.writeText(created.token);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  }

  return (
    <div role="status" data-testid="api-key-created" className="space-y-3 rounded-md border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-900">
      <p>
        The token of <strong>{created.key.name}</strong>. Copy it now: <strong>it will not be shown again</strong>. Send it as{" "}
        <code className="font-mono text-xs">Authorization: Bearer …</code>
      </p>
      <code data-testid="api-key-token" className="block break-all rounded bg-white px-2 py-1 font-mono text-sm text-zinc-900 ring-1 ring-indigo-200">
        {created.token}
      </code>
      <div className="flex items-center gap-3">
        <Button variant="secondary" onClick={copyToken}>
          Copy
        </Button>
        <Button onClick={onDone}>Done</Button>
        {copy === "copied" ? <span data-testid="api-key-copied">Copied to the clipboard.</span> : null}
        {copy === "failed" ? <span className="text-red-700">The browser refused the clipboard; select the token and copy it by hand.</span> : null}
      </div>
    </div>
  );
}
