import { describe, expect, it } from "vitest";
import { itemCountProblem, parseImport } from "./import-parse";
import { describeImportProblem, MAX_DATASET_ITEMS } from "./schemas";

const lines = (parsed: ReturnType<typeof parseImport>) => parsed.problems.map(describeImportProblem);

describe("CSV import", () => {
  it("reads every column: context and typed answers as JSON, tags as commas or JSON, quoted cells over several lines", () => {
    const csv = [
      "task,context,expected_output,expected_output_json,expected_trajectory,tags",
      `"Refund order 7","{""orderId"":7}",Refunded,"{""ok"":true}","[{""tool"":""refund"",""arguments"":{""orderId"":7}}]","billing, refunds"`,
      `"two`,
      `lines",,,,,"[""a"",""b""]"`,
    ].join("\r\n");
    const parsed = parseImport("csv", csv);
    expect(parsed.problems).toEqual([]);
    expect(parsed.items).toEqual([
      {
        input: { task: "Refund order 7", context: { orderId: 7 } },
        expected: { output: "Refunded", outputData: { ok: true }, trajectory: [{ tool: "refund", arguments: { orderId: 7 } }] },
        tape: [],
        tags: ["billing", "refunds"],
        source: { import: "csv" },
      },
      { input: { task: "two\nlines", context: {} }, expected: {}, tape: [], tags: ["a", "b"], source: { import: "csv" } },
    ]);
  });

  it("names a broken quote, a context that is not JSON and a missing task by line and column", () => {
    const csv = ["task,context", "fine,{}", "also fine,", `"broken"quote,{}`, "ok,{}", "bad context,{not json}", ",{}", "last,{}"].join("\n");
    const parsed = parseImport("csv", csv);
    expect(lines(parsed)).toEqual(expect.arrayContaining(["line 4: broken quotes", "line 6: context is not JSON", "line 7: task is required"]));
    expect(parsed.problems[0]).toEqual({ line: 4, message: "broken quotes" });
    expect(parsed.items.map((i) => i.input.task)).toEqual(expect.arrayContaining(["fine", "also fine", "last"]));
    expect(parsed.items.map((i) => i.input.task)).not.toContain("bad context");
  });

  it("names the line where an unclosed quote opened, not the end of the file, and reads the lines after it", () => {
    const parsed = parseImport("csv", ["task", "one", `"never closed`, "three", "four"].join("\n"));
    expect(lines(parsed)).toEqual(["line 3: broken quotes"]);
    expect(parsed.items.map((i) => i.input.task)).toEqual(["one", "three", "four"]);
  });

  it("refuses an unknown column and a header without task", () => {
    expect(lines(parseImport("csv", "task,expected\nx,y"))).toEqual(['line 1: unknown column "expected" (use task, context, expected_output, expected_output_json, expected_trajectory, tags)']);
    expect(lines(parseImport("csv", "context\n{}"))).toEqual(['line 1: the header has no "task" column']);
  });

  it("names a row with more fields than the header and a trajectory that is not a list of calls", () => {
    const parsed = parseImport("csv", ["task,expected_trajectory", "a,[],extra", `b,"{""tool"":""x""}"`].join("\n"));
    expect(lines(parsed)[0]).toBe("line 2: has 3 fields, the header has 2");
    expect(lines(parsed)[1]).toMatch(/^line 3: expected_trajectory is not a list of \{ tool, arguments \} calls/);
  });

  it("reads a header only as 0 items", () => {
    const parsed = parseImport("csv", "task,context\n");
    expect(parsed.items).toEqual([]);
    expect(parsed.problems).toEqual([]);
  });

  it("reads 100,001 rows (the count the import refuses)", () => {
    const csv = ["task", ...Array.from({ length: MAX_DATASET_ITEMS + 1 }, (_, i) => `task ${i}`)].join("\n");
    const parsed = parseImport("csv", csv);
    expect(parsed.items).toHaveLength(100_001);
    expect(itemCountProblem(parsed.items.length)).toBe("the dataset would have 100,001 items, over the limit of 100,000");
    // About a second on a quiet machine; the shared test machine may be far busier.
  }, 30_000);
});

describe("JSONL import", () => {
  it("reads flat keys and exported items back, skipping blank lines", () => {
    const jsonl = [
      JSON.stringify({ task: "Where is order 3?", context: { orderId: 3 }, expected_output_json: { status: "shipped" }, tags: "a,b" }),
      "",
      JSON.stringify({
        id: "dsi_abcdefgh",
        position: 2,
        input: { task: "Refund 9", context: {} },
        expected: { trajectory: [{ tool: "refund", arguments: { orderId: 9 } }] },
        tape: [{ kind: "tool_call", tool: "lookup", arguments: { orderId: 9 }, outcome: "ok", result: "{}" }],
        tags: [],
        source: { runId: "run-1" },
      }),
    ].join("\n");
    const parsed = parseImport("jsonl", jsonl);
    expect(parsed.problems).toEqual([]);
    expect(parsed.items[0]).toEqual({ input: { task: "Where is order 3?", context: { orderId: 3 } }, expected: { outputData: { status: "shipped" } }, tape: [], tags: ["a", "b"], source: { import: "jsonl" } });
    expect(parsed.items[1]?.tape).toHaveLength(1);
    expect(parsed.items[1]?.expected.trajectory).toEqual([{ tool: "refund", arguments: { orderId: 9 } }]);
  });

  it("names a line that is not JSON, a missing task, an unknown key and a context that is not an object", () => {
    const jsonl = ['{"task":"ok"}', "{not json", '{"context":{}}', '{"task":"x","colour":"red"}', '{"task":"y","context":[1]}'].join("\n");
    expect(lines(parseImport("jsonl", jsonl))).toEqual([
      "line 2: is not JSON",
      "line 3: task is required",
      "line 4: colour is not a known key (use task, context, expected_output, expected_output_json, expected_trajectory, tags)",
      "line 5: context is not a JSON object",
    ]);
  });

  it("reads an empty file as 0 items, which no version may have", () => {
    expect(parseImport("jsonl", "\n\n").items).toEqual([]);
    expect(itemCountProblem(0)).toBe("the dataset would have 0 items; add at least one");
    expect(itemCountProblem(MAX_DATASET_ITEMS)).toBeNull();
  });
});
