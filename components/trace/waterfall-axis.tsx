"use client";
// The waterfall's time axis: its labels (lib/runs/time-axis.ts axisLabels: the
// ends, each break with how long was cut, as many ticks between as fit, none
// wrapping) and drag-to-zoom.
import { useState, type PointerEvent as ReactPointerEvent } from "react";
import type { AxisLabel } from "@/lib/runs/time-axis";

const SHIFT: Record<AxisLabel["align"], string | undefined> = { start: undefined, center: "translateX(-50%)", end: "translateX(-100%)" };

export function WaterfallAxis({ labels, zoom, onZoom }: { labels: readonly AxisLabel[]; zoom: [number, number]; onZoom: (zoom: [number, number]) => void }) {
  const [z0, z1] = zoom;
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const fractionAt = (element: HTMLElement, clientX: number) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0) return 0;
    return z0 + Math.min(1, Math.max(0, (clientX - box.left) / box.width)) * (z1 - z0);
  };
  const endDrag = () => {
    if (drag && Math.abs(drag.to - drag.from) > 0.005) onZoom([Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)]);
    setDrag(null);
  };
  return (
    <div
      data-testid="time-axis"
      className="relative h-6 flex-1 cursor-crosshair select-none border-l border-zinc-100"
      onPointerDown={(e: ReactPointerEvent<HTMLDivElement>) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        const f = fractionAt(e.currentTarget, e.clientX);
        setDrag({ from: f, to: f });
      }}
      onPointerMove={(e) => drag && setDrag({ ...drag, to: fractionAt(e.currentTarget, e.clientX) })}
      onPointerUp={endDrag}
    >
      {labels.map((label) => (
        <span
          key={`${label.kind}-${label.at}`}
          data-testid={label.kind === "tick" ? "axis-tick" : "axis-break"}
          title={label.title}
          className={`absolute top-1 whitespace-nowrap leading-4 ${label.kind === "break" ? "rounded-sm bg-amber-50 text-amber-800" : ""}`}
          style={{ left: `${label.at * 100}%`, transform: SHIFT[label.align] }}
        >
          {label.text}
        </span>
      ))}
      {drag ? <span className="absolute inset-y-0 bg-indigo-200/60" style={{ left: `${((Math.min(drag.from, drag.to) - z0) / (z1 - z0)) * 100}%`, width: `${(Math.abs(drag.to - drag.from) / (z1 - z0)) * 100}%` }} /> : null}
    </div>
  );
}
