// What the demo model answers as a node of a plan (worker/workflows/plan-executor.ts
// asks each node "Objective: …", "The user's task: …" and its dependencies'
// results): a short, deterministic piece of work in plain English, so the demo's
// trip plan reads like one offline — flights and hotels found in parallel, then
// an itinerary that names what they found. Other objectives get a generic report.

const OBJECTIVE = /^Objective: (.+)$/m;
const USER_TASK = /^The user's task: (.+)$/m;
const DEPENDENCY = /^- ([^\s]+) \(([^)]+)\): /gm;

const DAY_PLANS = [
  "walk the old town and have dinner near the hotel",
  "the main museums in the morning, a river or harbour cruise at sunset",
  "a day trip to the coast or the hills nearby",
  "markets and a cooking class",
  "parks, a long lunch and an evening concert",
];

/** The destination and the number of days, as far as the task says them. */
function tripOf(task: string): { place: string; days: number } {
  const place = /\bto ([A-Z][\p{L}'-]+(?: [A-Z][\p{L}'-]+)?)/u.exec(task)?.[1] ?? "the destination";
  const days = Number(/\b(\d{1,2})[- ]day/i.exec(task)?.[1] ?? 3);
  return { place, days: Math.min(Math.max(days, 1), 14) };
}

function flights(place: string): string {
  return `Flights to ${place}: a nonstop morning departure (about 11 h, $640 return) and a one-stop evening option (about 15 h, $480). Recommended: the nonstop, for a full first afternoon.`;
}

function hotels(place: string): string {
  return `Hotels in ${place}: a boutique hotel in the old town ($180 a night, rated 4.6) and a business hotel by the main station ($140 a night, rated 4.3). Recommended: the boutique hotel, within walking distance of the sights.`;
}

function itinerary(place: string, days: number, inputs: string[]): string {
  const lines = Array.from({ length: days }, (_, i) => {
    if (i === 0) return `Day 1 — arrive on the nonstop flight, check in at the boutique hotel, ${DAY_PLANS[0]}.`;
    if (i === days - 1 && days > 1) return `Day ${days} — a last breakfast, then the flight home.`;
    return `Day ${i + 1} — ${DAY_PLANS[i % DAY_PLANS.length]}.`;
  });
  const from = inputs.length ? ` Built on: ${inputs.join(", ")}.` : "";
  return `Itinerary for ${days} day${days === 1 ? "" : "s"} in ${place}:\n${lines.join("\n")}${from}`;
}

/** The node's answer, or null when the message is not a plan node's. */
export function planNodeWork(agentName: string, message: string): string | null {
  const objective = OBJECTIVE.exec(message)?.[1];
  if (!objective) return null;
  const task = USER_TASK.exec(message)?.[1] ?? objective;
  const inputs = [...message.matchAll(DEPENDENCY)].map((m) => m[1] ?? "");
  const { place, days } = tripOf(task);
  const topic = `${agentName} ${objective}`.toLowerCase();
  if (inputs.length === 0 && topic.includes("flight")) return flights(place);
  if (inputs.length === 0 && topic.includes("hotel")) return hotels(place);
  if (topic.includes("itinerar") || topic.includes("schedule")) return itinerary(place, days, inputs);
  const from = inputs.length ? ` It builds on ${inputs.join(", ")}.` : "";
  return `${agentName} finished “${objective.slice(0, 200)}”.${from}`;
}
