"use client";
// The "stuck or burning" view's thresholds as fields: how long a run may write
// nothing, and how much it may spend a minute. Each is applied to the URL on
// Enter or on leaving the field (the list reads it from there, as a saved view
// keeps it); a value the list would refuse is said beside the field instead.
import { useState, type FocusEvent, type KeyboardEvent } from "react";
import { usePathname, useRouter } from "next/navigation";
import { Input } from "@/components/ui/input";
import { runFiltersSchema, STUCK_DEFAULTS } from "@/lib/runs/schemas";

type Threshold = "stuckMinutes" | "burnPerMinute";

/** The URL's thresholds, where they parse (the list's own schema). */
export function thresholdsOf(params: URLSearchParams): { stuckMinutes?: number; burnPerMinute?: number } {
  const minutes = runFiltersSchema.shape.stuckMinutes.safeParse(params.get("stuckMinutes") ?? undefined);
  const burn = runFiltersSchema.shape.burnPerMinute.safeParse(params.get("burnPerMinute") ?? undefined);
  return { ...(minutes.success && minutes.data !== undefined ? { stuckMinutes: minutes.data } : {}), ...(burn.success && burn.data !== undefined ? { burnPerMinute: burn.data } : {}) };
}

export function StuckThresholds({ params }: { params: URLSearchParams }) {
  const router = useRouter();
  const pathname = usePathname();
  const [problem, setProblem] = useState<string | null>(null);
  const current = thresholdsOf(params);

  const apply = (key: Threshold, raw: string) => {
    const text = raw.trim();
    const parsed = runFiltersSchema.shape[key].safeParse(text === "" ? undefined : text);
    if (!parsed.success) {
      setProblem(`${key === "stuckMinutes" ? "Minutes" : "Dollars a minute"}: ${parsed.error.issues[0]?.message ?? "not a number the view takes"}`);
      return;
    }
    setProblem(null);
    const next = new URLSearchParams(params);
    if (parsed.data === undefined) next.delete(key);
    else next.set(key, String(parsed.data));
    next.delete("page");
    if (next.toString() !== params.toString()) router.replace(`${pathname}?${next.toString()}`);
  };
  const onBlur = (key: Threshold) => (e: FocusEvent<HTMLInputElement>) => apply(key, e.target.value);
  const onEnter = (key: Threshold) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") apply(key, e.currentTarget.value);
  };

  return (
    <form className="flex flex-wrap items-end gap-3 text-xs" aria-label="Stuck or burning thresholds" onSubmit={(e) => e.preventDefault()}>
      <label className="flex w-44 flex-col gap-1">
        <span className="text-zinc-600">No progress for (minutes)</span>
        <Input
          key={`minutes-${current.stuckMinutes ?? ""}`}
          type="number"
          min={1}
          step={1}
          defaultValue={current.stuckMinutes ?? STUCK_DEFAULTS.stuckMinutes}
          onBlur={onBlur("stuckMinutes")}
          onKeyDown={onEnter("stuckMinutes")}
        />
      </label>
      <label className="flex w-44 flex-col gap-1">
        <span className="text-zinc-600">Spending over ($ a minute)</span>
        <Input
          key={`burn-${current.burnPerMinute ?? ""}`}
          type="number"
          min={0.0001}
          step={0.01}
          defaultValue={current.burnPerMinute ?? STUCK_DEFAULTS.burnPerMinute}
          onBlur={onBlur("burnPerMinute")}
          onKeyDown={onEnter("burnPerMinute")}
        />
      </label>
      {problem ? (
        <p role="alert" className="pb-2 text-red-700">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
