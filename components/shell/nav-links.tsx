"use client";
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { InboxBadge } from "@/components/inbox/inbox-badge";

export interface NavItem {
  href: string;
  label: string;
}

/** Sections every role reads, shown after Runs (issue 27): datasets of runs, experiments over them, and the playground. */
const AFTER_RUNS: NavItem[] = [
  { href: "/datasets", label: "Datasets" },
  { href: "/experiments", label: "Experiments" },
  { href: "/playground", label: "Playground" },
];

/** Primary navigation; highlights the section the current page belongs to. */
export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  // A link the layout already lists is not added twice.
  const shown = items.flatMap((item) => (item.href === "/runs" ? [item, ...AFTER_RUNS.filter((extra) => !items.some((i) => i.href === extra.href))] : [item]));
  return (
    <nav aria-label="Main" className="flex flex-col gap-1">
      {shown.map((item) => {
        const active = item.href === "/" ? pathname === "/" : pathname.startsWith(item.href);
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "flex items-center rounded-md px-3 py-2 text-sm font-medium",
              active ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-200/60",
            )}
          >
            {item.label}
            {item.href === "/inbox" && <InboxBadge />}
          </Link>
        );
      })}
    </nav>
  );
}
