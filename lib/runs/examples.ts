// Example tasks the run dialog offers for the seeded demo agents, in plain
// English: the demo model plans from them (worker/models/demo-planner.ts).

export interface ExampleTask {
  label: string;
  task: string;
  context?: Record<string, unknown>;
}

const SUPPORT_CONTEXT = { company: "Acme", customer: { name: "Ada" } };

export const EXAMPLE_TASKS: Readonly<Record<string, readonly ExampleTask[]>> = {
  "support-triage": [
    { label: "Refund an order", task: "Refund order A-1003 for Ada", context: SUPPORT_CONTEXT },
    { label: "Where is my parcel?", task: "Where is order A-1002? Ada says it has not arrived yet.", context: SUPPORT_CONTEXT },
    { label: "Return policy", task: "Can Ada return the headphones from order A-1001? What does our return policy say?", context: SUPPORT_CONTEXT },
  ],
  "research-loop": [
    { label: "Research a topic", task: "Research durable execution and summarise what our notes say about Temporal retries." },
    { label: "Estimate a cost", task: "How much do 120 runs at 0.35 dollars each cost? Check our notes on pricing too." },
  ],
  treasury: [
    { label: "Check balances", task: "What are the balances of the operating and savings accounts?" },
    { label: "Move money", task: "Move $250 from savings to operating" },
  ],
  "invoice-triage": [
    { label: "Rejected invoice", task: "Why was invoice INV-1001 rejected?" },
    { label: "Pending invoice", task: "What is holding up invoice INV-1003?" },
  ],
  "help-desk": [
    { label: "Billing question", task: "Why was invoice INV-1001 rejected?" },
    { label: "Technical problem", task: "I get an error when I try to login" },
    { label: "Anything else (fallback)", task: "What are your opening hours?" },
  ],
  // The dialog's image field carries the picture; the demo/vision model describes what it receives.
  "image-describer": [{ label: "Describe an image (attach one)", task: "What is in this image? Tell me its format, size and main colour." }],
  "trip-planner": [{ label: "Plan a trip", task: "Plan a 3-day trip to Paris in June from San Francisco" }],
  "front-desk": [
    { label: "Order status", task: "Where is my order A-1002?" },
    { label: "Refund (handed off)", task: "I want a refund for order A-1003" },
    { label: "App crash (handed off)", task: "The app crashes every time I open it" },
  ],
};

/** Examples for a graph (none for agents without examples). */
export function examplesFor(graphName: string): readonly ExampleTask[] {
  return EXAMPLE_TASKS[graphName] ?? [];
}
