// The per-user cap every live stream shares, and sign-out nudging a user's streams to re-check their caller.
import { describe, expect, it } from "vitest";
import { RateLimitedError } from "../../errors";
import { recheckUserStreams, openStreamCount, STREAMS_PER_USER, takeStreamSlot } from "./stream-limits";

describe("stream slots", () => {
  it(`refuses the ${STREAMS_PER_USER + 1}th open stream of a user, not another user's, and frees a released slot once`, () => {
    const slots = Array.from({ length: STREAMS_PER_USER }, () => takeStreamSlot("cap-user"));
    expect(() => takeStreamSlot("cap-user")).toThrow(RateLimitedError);
    const other = takeStreamSlot("cap-other");
    const first = slots[0];
    first?.release();
    first?.release();
    expect(openStreamCount("cap-user")).toBe(STREAMS_PER_USER - 1);
    slots.push(takeStreamSlot("cap-user"));
    expect(() => takeStreamSlot("cap-user")).toThrow(RateLimitedError);
    for (const slot of [...slots, other]) slot.release();
    expect(openStreamCount("cap-user")).toBe(0);
  });

  it("sign-out signals every open stream of the user to re-check its caller, and no one else's", () => {
    const mine = [takeStreamSlot("leaving"), takeStreamSlot("leaving")];
    const theirs = takeStreamSlot("staying");
    expect(recheckUserStreams("leaving")).toBe(2);
    expect(mine.every((slot) => slot.signal.aborted)).toBe(true);
    expect(theirs.signal.aborted).toBe(false);
    for (const slot of [...mine, theirs]) slot.release();
    expect(openStreamCount("leaving")).toBe(0);
  });
});
