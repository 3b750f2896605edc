"use client";
import { useState, useTransition, type FormEvent } from "react";
import { setModelPriceAction } from "@/lib/actions/set-model-price";
import { removeModelPriceAction } from "@/lib/actions/remove-model-price";
import type { ModelPriceEntry } from "@/lib/pricing/schemas";
import { formatDateTime } from "@/lib/format/figures";
import { PriceEntriesTable } from "@/components/pricing/price-entries-table";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";

type Message = { tone: "error" | "success"; text: string };

/** An optional rate field: blank is null (falls back), anything else a number (the schema says what is wrong with it). */
function optionalRate(form: FormData, name: string): number | null {
  const text = String(form.get(name) ?? "").trim();
  return text === "" ? null : Number(text);
}

/** The price table: a form to price a model from a time (admins), and every model's prices with their history. */
export function PricesClient({ entries, canEdit, now }: { entries: ModelPriceEntry[]; canEdit: boolean; now: string }) {
  const [message, setMessage] = useState<Message | null>(null);
  const [pending, startTransition] = useTransition();

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // datetime-local is the browser's local time; blank: now (the server's clock).
    const from = String(form.get("effectiveFrom") ?? "").trim();
    const input = {
      model: String(form.get("model") ?? "").trim(),
      input: Number(String(form.get("input") ?? "").trim() || NaN),
      output: Number(String(form.get("output") ?? "").trim() || NaN),
      cachedRead: optionalRate(form, "cachedRead"),
      cachedWrite: optionalRate(form, "cachedWrite"),
      reasoning: optionalRate(form, "reasoning"),
      ...(from ? { effectiveFrom: new Date(from).toISOString() } : {}),
    };
    startTransition(async () => {
      const result = await setModelPriceAction(input);
      if (!result.ok) {
        const issue = result.error.issues?.[0];
        setMessage({ tone: "error", text: issue ? `${issue.path}: ${issue.message}` : result.error.message });
        return;
      }
      setMessage({ tone: "success", text: `${result.data.model} costs $${result.data.input} / $${result.data.output} per million tokens from ${formatDateTime(result.data.effectiveFrom)}.` });
    });
  };
  const remove = (entry: ModelPriceEntry) =>
    startTransition(async () => {
      const result = await removeModelPriceAction({ id: entry.id ?? "" });
      setMessage(result.ok ? { tone: "success", text: `Removed the price of ${entry.model} from ${formatDateTime(entry.effectiveFrom)}.` } : { tone: "error", text: result.error.message });
    });

  return (
    <div className="space-y-6">
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {canEdit && (
        <Card>
          <CardHeader
            title="Set a price"
            description="US dollars per million tokens. Blank cached and reasoning prices are billed as input and output. A price from a past time reprices the calls made since then; the same model and time again replaces that price."
          />
          <CardBody>
            <form onSubmit={save} className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-label="Set a price">
              <div className="col-span-2">
                <Label htmlFor="price-model">Model</Label>
                <Input id="price-model" name="model" placeholder="openai/gpt-4o" required />
              </div>
              <div className="col-span-2">
                <Label htmlFor="price-from">Effective from (blank: now)</Label>
                <Input id="price-from" name="effectiveFrom" type="datetime-local" step="1" />
              </div>
              <div>
                <Label htmlFor="price-input">Input</Label>
                <Input id="price-input" name="input" inputMode="decimal" placeholder="2.5" required />
              </div>
              <div>
                <Label htmlFor="price-output">Output</Label>
                <Input id="price-output" name="output" inputMode="decimal" placeholder="10" required />
              </div>
              <div>
                <Label htmlFor="price-cached-read">Cached input read</Label>
                <Input id="price-cached-read" name="cachedRead" inputMode="decimal" placeholder="= input" />
              </div>
              <div>
                <Label htmlFor="price-cached-write">Cached input write</Label>
                <Input id="price-cached-write" name="cachedWrite" inputMode="decimal" placeholder="= input" />
              </div>
              <div>
                <Label htmlFor="price-reasoning">Reasoning</Label>
                <Input id="price-reasoning" name="reasoning" inputMode="decimal" placeholder="= output" />
              </div>
              <div className="flex items-end">
                <Button type="submit" disabled={pending}>
                  Save price
                </Button>
              </div>
            </form>
          </CardBody>
        </Card>
      )}
      <Card>
        <CardHeader title="Prices" description="Demo models (demo/…) cost $0 unless priced here. Models not listed are unpriced: their cost shows as unpriced, never $0." />
        <CardBody>
          <PriceEntriesTable entries={entries} now={now} pending={pending} {...(canEdit ? { onRemove: remove } : {})} />
        </CardBody>
      </Card>
    </div>
  );
}
