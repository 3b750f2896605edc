"use client";
import type { FormEvent } from "react";
import { ROLE_DESCRIPTIONS, isRole, type Role } from "@/lib/access/roles";
import { API_KEY_MAX_DAYS, type CreateApiKeyInput } from "@/lib/api-keys/schemas";
import { Input, Label, Select } from "@/components/ui/input";
import { Button } from "@/components/ui/button";

/** The form's fields as the action's input (kind is the caller's); an empty expiry means the key never expires. */
function inputFrom(form: FormData, roles: readonly Role[]): Omit<CreateApiKeyInput, "kind"> {
  const role = String(form.get("role") ?? "");
  const days = String(form.get("expiresInDays") ?? "").trim();
  return {
    name: String(form.get("name") ?? ""),
    role: isRole(role) && roles.includes(role) ? role : "viewer",
    ...(days ? { expiresInDays: Number(days) } : {}),
  };
}

/** Name, role (only those within the creator's) and an optional expiry in days. */
export function CreateApiKeyForm({
  roles,
  pending,
  submitLabel,
  onSubmit,
}: {
  roles: readonly Role[];
  pending: boolean;
  submitLabel: string;
  onSubmit: (input: Omit<CreateApiKeyInput, "kind">, form: HTMLFormElement) => void;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(inputFrom(new FormData(event.currentTarget), roles), event.currentTarget);
  }
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end" aria-label="Create an API key">
      <div>
        <Label htmlFor="api-key-name">Key name</Label>
        <Input id="api-key-name" name="name" required maxLength={100} placeholder="e.g. CI deploys" />
      </div>
      <div>
        <Label htmlFor="api-key-role">Key role</Label>
        <Select id="api-key-role" name="role" defaultValue={roles.includes("viewer") ? "viewer" : roles[0]}>
          {roles.map((role) => (
            <option key={role} value={role} title={ROLE_DESCRIPTIONS[role]}>
              {role}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <Label htmlFor="api-key-expiry">Expires in (days)</Label>
        <Input id="api-key-expiry" name="expiresInDays" type="number" min={1} max={API_KEY_MAX_DAYS} step={1} placeholder="never" />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : submitLabel}
      </Button>
    </form>
  );
}
