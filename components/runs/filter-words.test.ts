// An empty result echoes the filters that emptied it; paging and order are not filters.
import { describe, expect, it } from "vitest";
import { filterWords, hasFilters, withoutFilters } from "./filter-words";

describe("filter words", () => {
  it("says the search first and quoted, then the other filters", () => {
    expect(filterWords(new URLSearchParams("tool=lookup_order&q=order 4417&status=awaiting_approval&page=2&sort=cost"))).toEqual(["“order 4417”", "tool lookup_order", "status awaiting approval"]);
    expect(filterWords(new URLSearchParams("view=stuck&stuckMinutes=30&awaitingApproval=1"))).toEqual(["stuck or burning", "quiet for (min) 30", "awaiting approval"]);
  });

  it("says what started the runs as the overview's split does, and the schedule and webhook by id", () => {
    expect(filterWords(new URLSearchParams("trigger=webhook&webhook=whk_abcdefgh1&scheduleId=sch_abcdefgh1"))).toEqual(["started by a webhook", "webhook whk_abcdefgh1", "schedule sch_abcdefgh1"]);
    expect(filterWords(new URLSearchParams("trigger=manual"))).toEqual(["started by a person (browser, API, CLI)"]);
  });

  it("tells a filtered list from an empty workspace", () => {
    expect(hasFilters(new URLSearchParams("page=2&sort=cost&order=asc"))).toBe(false);
    expect(hasFilters(new URLSearchParams("q=refund"))).toBe(true);
    expect(hasFilters(new URLSearchParams("q="))).toBe(false);
  });

  it("clears the filters and the page, keeping the order", () => {
    expect(withoutFilters(new URLSearchParams("q=x&tool=y&page=3&sort=cost&order=asc")).toString()).toBe("sort=cost&order=asc");
  });
});
