"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { createApiKeyAction } from "@/lib/actions/create-api-key";
import { revokeApiKeyAction } from "@/lib/actions/revoke-api-key";
import type { Role } from "@/lib/access/roles";
import type { ApiKeyKind, ApiKeySummary, CreateApiKeyInput, CreatedApiKey } from "@/lib/api-keys/schemas";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ApiKeyList } from "./api-key-list";
import { CreateApiKeyForm } from "./create-api-key-form";
import { NewTokenPanel } from "./new-token-panel";

type Message = { tone: "error" | "success"; text: string };

/**
 * The API keys section of the account page (personal keys) and of the admin
 * page (service keys, every owner's keys): create, show the token once, revoke.
 * The list comes from the server page; after each action the page is refreshed.
 */
export function ApiKeysPanel({
  keys,
  kind,
  roles,
  showOwner = false,
  title,
  description,
}: {
  keys: ApiKeySummary[];
  /** What the form creates: personal keys, or (admins) service keys. */
  kind: ApiKeyKind;
  /** The roles a new key may have: those within the creator's. */
  roles: readonly Role[];
  showOwner?: boolean;
  title: string;
  description: string;
}) {
  const router = useRouter();
  const [message, setMessage] = useState<Message | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [pending, startTransition] = useTransition();

  function create(input: Omit<CreateApiKeyInput, "kind">, form: HTMLFormElement) {
    startTransition(async () => {
      const result = await createApiKeyAction({ ...input, kind });
      if (!result.ok) {
        setMessage({ tone: "error", text: result.error.message });
        return;
      }
      form.reset();
      setMessage(null);
      setCreated(result.data);
      router.refresh();
    });
  }

  function revoke(key: ApiKeySummary) {
    startTransition(async () => {
      const result = await revokeApiKeyAction({ id: key.id });
      setMessage(result.ok ? { tone: "success", text: `“${key.name}” was revoked; programs using it now get 401.` } : { tone: "error", text: result.error.message });
      if (result.ok) router.refresh();
    });
  }

  return (
    <Card data-testid={`api-keys-${kind}`}>
      <CardHeader title={title} description={description} />
      <CardBody className="space-y-4">
        {created ? <NewTokenPanel created={created} onDone={() => setCreated(null)} /> : null}
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
        <CreateApiKeyForm roles={roles} pending={pending} submitLabel={kind === "service" ? "Create service key" : "Create key"} onSubmit={create} />
      </CardBody>
      <div className="border-t border-zinc-100">
        <ApiKeyList keys={keys} showOwner={showOwner} pending={pending} onRevoke={revoke} />
      </div>
    </Card>
  );
}
