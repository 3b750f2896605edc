/** The demo bank's accounts (amounts in cents), seeded on an empty database. */
export const DEMO_ACCOUNTS = [
  { id: "operating", name: "Operating account", balanceCents: 1_000_000 },
  { id: "refunds", name: "Customer refunds", balanceCents: 250_000 },
  { id: "savings", name: "Savings", balanceCents: 5_000_000 },
] as const;
