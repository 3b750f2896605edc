import type { ReactNode } from "react";

/** What a page shows before it has content: what goes here and what to do next. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
      <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
      <div className="mx-auto mt-2 max-w-xl text-sm text-zinc-600">{children}</div>
      {action ? <div className="mt-6">{action}</div> : null}
    </div>
  );
}
