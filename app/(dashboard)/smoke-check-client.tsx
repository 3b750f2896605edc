"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { runSmokeWorkflowAction } from "@/lib/actions/run-smoke-workflow";
import type { SmokeResult } from "@/lib/smoke/schemas";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

export function SmokeCheck({ defaultName }: { defaultName: string }) {
  const [name, setName] = useState(defaultName);
  const mutation = useMutation({
    mutationFn: async (input: { name: string }): Promise<SmokeResult> => {
      const result = await runSmokeWorkflowAction(input);
      if (!result.ok) throw new Error(result.error.issues?.[0]?.message ?? result.error.message);
      return result.data;
    },
  });
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        mutation.mutate({ name });
      }}
    >
      <div>
        <Label htmlFor="smoke-name">Name to greet</Label>
        <Input id="smoke-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} />
      </div>
      <Button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? "Running…" : "Run smoke workflow"}
      </Button>
      {mutation.isError ? <Alert tone="error">{mutation.error.message}</Alert> : null}
      {mutation.data ? (
        <div data-testid="smoke-result" className="space-y-1">
          <Alert tone="success">{mutation.data.message}</Alert>
          <p className="text-xs text-zinc-500">
            Workflow <code className="font-mono">{mutation.data.workflowId}</code> · {mutation.data.workerIdentity}
          </p>
        </div>
      ) : null}
    </form>
  );
}
