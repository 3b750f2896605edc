"use client";
// Model = provider + model name. Providers configured in the server's
// environment are offered; the others are listed as unavailable.
import { INPUT } from "./fields";
import { INHERIT_MODEL } from "@/lib/agents/model-inheritance";

export interface ProviderOption {
  /** `demo`, `openai`, `anthropic` or `openai-compatible/<name>`. */
  id: string;
  available: boolean;
}

/** Splits a model id into its provider and model name (`openai-compatible/<name>/<model>` keeps the name with the provider). */
export function splitModel(model: string): { provider: string; name: string } {
  const parts = model.split("/");
  if (parts[0] === "openai-compatible") return { provider: parts.slice(0, 2).join("/"), name: parts.slice(2).join("/") };
  return { provider: parts[0] ?? "", name: parts.slice(1).join("/") };
}

export function ModelPicker({ id, value, providers, disabled, onChange }: { id: string; value: string; providers: readonly ProviderOption[]; disabled: boolean; onChange: (model: string) => void }) {
  const { provider, name } = splitModel(value);
  const inherits = value === INHERIT_MODEL;
  const known = inherits || providers.some((p) => p.id === provider);
  return (
    <div className="flex gap-2">
      <select
        aria-label="Model provider"
        className={`${INPUT} w-44`}
        value={provider}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value === INHERIT_MODEL ? INHERIT_MODEL : `${e.target.value}/${name || "assistant"}`)}
      >
        {/* DD-7: the model of the agent that asks this one (its parent, router or handoff sender). */}
        <option value={INHERIT_MODEL}>inherit (caller&apos;s model)</option>
        {known ? null : <option value={provider}>{provider || "(none)"}</option>}
        {providers.map((p) => (
          <option key={p.id} value={p.id} disabled={!p.available}>
            {p.id}
            {p.available ? "" : " (not configured)"}
          </option>
        ))}
      </select>
      {inherits ? null : <input id={id} aria-label="Model name" className={INPUT} value={name} disabled={disabled} onChange={(e) => onChange(`${provider}/${e.target.value}`)} />}
    </div>
  );
}
