"use client";
// Small form pieces of the inspector: a labelled field with the validator's
// messages for its path right under it.
import type { ReactNode } from "react";
import type { GraphIssue } from "@/lib/agents/validate";
import { issuesAt } from "@/lib/agents/graph-issues";

export function FieldIssues({ issues, path }: { issues: { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] }; path: string }) {
  const errors = issuesAt(issues.errors, path);
  const warnings = issuesAt(issues.warnings, path);
  if (!errors.length && !warnings.length) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-xs" data-testid={`field-issues-${path}`}>
      {errors.map((e) => (
        <li key={`e${e.path}${e.message}`} className="text-red-700">
          {e.message}
        </li>
      ))}
      {warnings.map((w) => (
        <li key={`w${w.path}${w.message}`} className="text-amber-700">
          {w.message}
        </li>
      ))}
    </ul>
  );
}

export function Field({ id, label, path, issues, children }: { id: string; label: string; path: string; issues: { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] }; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} id={`${id}-label`} className="mb-0.5 block text-xs font-medium text-zinc-700">
        {label}
      </label>
      {children}
      <FieldIssues issues={issues} path={path} />
    </div>
  );
}

export const INPUT = "block w-full rounded-md border-0 bg-white px-2 py-1 text-sm text-zinc-900 ring-1 ring-inset ring-zinc-300 focus:ring-2 focus:ring-indigo-600 disabled:bg-zinc-50";

/** A number input that hands NaN on for an empty or partial value, so the validator names the field. */
export function NumberInput({ id, value, onChange, disabled, step }: { id: string; value: number; onChange: (value: number) => void; disabled: boolean; step?: number }) {
  return <input id={id} type="number" className={INPUT} value={Number.isFinite(value) ? value : ""} step={step} disabled={disabled} onChange={(e) => onChange(e.target.value === "" ? Number.NaN : Number(e.target.value))} />;
}
