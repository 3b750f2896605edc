// How a run started is defined where its columns are read (lib/run-ledger/triggers.ts): the ledger's reads
// filter by it, and the ledger sits below lib/runs.
export * from "../run-ledger/triggers";
