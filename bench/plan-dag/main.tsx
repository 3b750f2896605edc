// The page bench/plan-dag-view opens in Chromium: the run page's plan canvas
// (components/plan/plan-canvas.tsx) for a generated plan caught mid-run (half
// the nodes completed, a tenth running). Sets window.__planBench when the canvas is
// interactive, and window.__planBench.finish() times one live update: every
// remaining node completes in one batch of events, until the next paint.
// (window.__planBench: bench/designer's page declares window.__bench.)
import { StrictMode, useEffect, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import "../../app/globals.css";
import { PlanCanvas } from "../../components/plan/plan-canvas";
import { buildPlanView } from "../../lib/runs/plan-view";
import { eventsOf, MODELS, planOf, PRICES, SHAPES, type Shape } from "./plans";

declare global {
  interface Window {
    __planBench?: { interactiveAt: number; cards: number; finish: () => Promise<number> };
  }
}

const params = new URLSearchParams(window.location.search);
const size = Number(params.get("n") ?? 50);
const shape: Shape = SHAPES.find((s) => s === params.get("shape")) ?? "layered";
const plan = planOf(shape, size);
const midRun = eventsOf(plan, Math.floor(size / 2), Math.ceil(size / 10));
const atEnd = eventsOf(plan);

/** Interactive: cards in the DOM and fitView applied (the viewport moved off its initial transform), then one more frame so they are painted. */
function whenInteractive(done: (cards: number) => void): void {
  const check = () => {
    const cards = document.querySelectorAll('[data-testid^="plan-node-"]').length;
    const viewport = document.querySelector<HTMLElement>(".react-flow__viewport");
    if (cards > 0 && viewport && viewport.style.transform && viewport.style.transform !== "translate(0px, 0px) scale(1)") requestAnimationFrame(() => done(cards));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

function Bench() {
  const [events, setEvents] = useState(midRun);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [pending, setPending] = useState<{ started: number; resolve: (ms: number) => void } | null>(null);
  const view = useMemo(() => buildPlanView(events), [events]);
  useEffect(() => {
    whenInteractive((cards) => {
      window.__planBench = {
        interactiveAt: performance.now(),
        cards,
        finish: () => new Promise<number>((resolve) => {
          setPending({ started: performance.now(), resolve });
          setEvents(atEnd);
        }),
      };
    });
  }, []);
  useEffect(() => {
    if (!pending || events !== atEnd) return;
    requestAnimationFrame(() => pending.resolve(performance.now() - pending.started));
  }, [pending, events]);
  if (!view) return null;
  return <PlanCanvas view={view} agentModels={MODELS} prices={PRICES} selectedId={selectedId} onSelect={setSelectedId} />;
}

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <Bench />
    </StrictMode>,
  );
