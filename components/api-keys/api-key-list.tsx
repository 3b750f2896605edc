"use client";
import { useState } from "react";
import type { ApiKeySummary } from "@/lib/api-keys/schemas";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DateTime } from "@/components/ui/date-time";
import { STATUS_TONE } from "./format";

/** One key's revoke button, which asks once more before it acts: a revoked key cannot be brought back. */
function RevokeControl({ apiKey, pending, onRevoke }: { apiKey: ApiKeySummary; pending: boolean; onRevoke: (key: ApiKeySummary) => void }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <Button variant="secondary" disabled={pending} aria-label={`Revoke ${apiKey.name}`} onClick={() => setConfirming(true)}>
        Revoke
      </Button>
    );
  }
  return (
    <span className="inline-flex items-center gap-2" data-testid={`api-key-confirm-${apiKey.name}`}>
      <span className="text-xs text-zinc-600">Programs using it get 401 at once.</span>
      <Button
        variant="danger"
        disabled={pending}
        aria-label={`Confirm revoking ${apiKey.name}`}
        onClick={() => {
          setConfirming(false);
          onRevoke(apiKey);
        }}
      >
        Revoke now
      </Button>
      <Button variant="ghost" disabled={pending} onClick={() => setConfirming(false)}>
        Cancel
      </Button>
    </span>
  );
}

/** API keys as a table: never a secret, only the prefix that recognises one; active keys can be revoked. */
export function ApiKeyList({
  keys,
  showOwner = false,
  pending = false,
  onRevoke,
}: {
  keys: ApiKeySummary[];
  /** Admins see every owner's keys. */
  showOwner?: boolean;
  pending?: boolean;
  onRevoke: (key: ApiKeySummary) => void;
}) {
  if (keys.length === 0) {
    return (
      <p className="px-5 py-4 text-sm text-zinc-500" data-testid="api-keys-empty">
        No API keys yet.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-zinc-200 text-sm" data-testid="api-key-list">
        <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="px-4 py-3">Key</th>
            {showOwner ? <th className="px-4 py-3">Owner</th> : null}
            <th className="px-4 py-3">Status</th>
            <th className="px-4 py-3">Role</th>
            <th className="px-4 py-3">Created</th>
            <th className="px-4 py-3">Expires</th>
            <th className="px-4 py-3">Last used</th>
            <th className="px-4 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {keys.map((key) => (
            <tr key={key.id} data-testid={`api-key-row-${key.name}`}>
              <td className="px-4 py-3">
                <p className="break-all font-medium text-zinc-900">{key.name}</p>
                <p className="font-mono text-xs text-zinc-500">{key.prefix}…</p>
              </td>
              {showOwner ? (
                <td className="break-all px-4 py-3 text-zinc-600" data-testid={`api-key-owner-${key.name}`}>
                  {key.owner.email}
                </td>
              ) : null}
              <td className="space-x-1 whitespace-nowrap px-4 py-3">
                <Badge tone={STATUS_TONE[key.status]}>
                  <span data-testid={`api-key-status-${key.name}`}>{key.status}</span>
                </Badge>
                <Badge tone={key.kind === "service" ? "info" : "neutral"}>{key.kind}</Badge>
              </td>
              <td className="px-4 py-3 text-zinc-600">{key.role}</td>
              {/* Moments may wrap between date and time: with the owner column and three moments the table fits 1280 px. */}
              <td className="px-4 py-3 text-zinc-600">
                <DateTime value={key.createdAt} />
              </td>
              <td className="px-4 py-3 text-zinc-600">{key.expiresAt ? <DateTime value={key.expiresAt} /> : "never"}</td>
              <td className="px-4 py-3 text-zinc-600" data-testid={`api-key-last-used-${key.name}`}>
                {key.lastUsedAt ? <DateTime value={key.lastUsedAt} /> : "never used"}
              </td>
              <td className="whitespace-nowrap px-4 py-3 text-right">
                {key.status === "active" ? <RevokeControl apiKey={key} pending={pending} onRevoke={onRevoke} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
