import type { ReactNode } from "react";
import { cn } from "./cn";

export function Alert({ tone, children }: { tone: "error" | "success" | "info"; children: ReactNode }) {
  const styles = {
    error: "border-red-200 bg-red-50 text-red-800",
    success: "border-emerald-200 bg-emerald-50 text-emerald-800",
    info: "border-indigo-200 bg-indigo-50 text-indigo-800",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} data-testid={`alert-${tone}`} className={cn("rounded-md border px-3 py-2 text-sm", styles)}>
      {children}
    </div>
  );
}
