// Slack's request signing, checked against the example in Slack's documentation
// (https://api.slack.com/authentication/verifying-requests-from-slack): the same
// secret, timestamp and body give the documented signature, and any change to
// one of them, or a timestamp out of the window, is refused.
import { describe, expect, it } from "vitest";
import { slackSignature, slackSignatureProblem } from "./slack-signature";

// Slack's documented example.
const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const TIMESTAMP = "1531420618";
const BODY =
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
const SIGNATURE = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
const AT = Number(TIMESTAMP);

describe("Slack request signatures", () => {
  it("computes Slack's documented signature", () => {
    expect(slackSignature(SECRET, TIMESTAMP, BODY)).toBe(SIGNATURE);
  });

  it("accepts Slack's documented request within five minutes of its timestamp", () => {
    expect(slackSignatureProblem({ signingSecret: SECRET, body: BODY, timestamp: TIMESTAMP, signature: SIGNATURE }, AT + 299)).toBeNull();
  });

  it("refuses it once stale, or from the future", () => {
    expect(slackSignatureProblem({ signingSecret: SECRET, body: BODY, timestamp: TIMESTAMP, signature: SIGNATURE }, AT + 301)).toMatch(/more than 300 s/);
    expect(slackSignatureProblem({ signingSecret: SECRET, body: BODY, timestamp: TIMESTAMP, signature: SIGNATURE }, AT - 301)).toMatch(/more than 300 s/);
  });

  it("refuses an altered body, another secret, another timestamp signed with the old signature", () => {
    expect(slackSignatureProblem({ signingSecret: SECRET, body: BODY.replace("roadrunner", "coyote"), timestamp: TIMESTAMP, signature: SIGNATURE }, AT)).toBe("the signature does not match");
    expect(slackSignatureProblem({ signingSecret: "another-secret", body: BODY, timestamp: TIMESTAMP, signature: SIGNATURE }, AT)).toBe("the signature does not match");
    expect(slackSignatureProblem({ signingSecret: SECRET, body: BODY, timestamp: String(AT + 1), signature: SIGNATURE }, AT)).toBe("the signature does not match");
  });

  it("refuses missing or malformed headers", () => {
    expect(slackSignatureProblem({ signingSecret: SECRET, body: BODY, timestamp: null, signature: SIGNATURE }, AT)).toMatch(/timestamp/);
    expect(slackSignatureProblem({ signingSecret: SECRET, body: BODY, timestamp: TIMESTAMP, signature: null }, AT)).toMatch(/signature/);
    expect(slackSignatureProblem({ signingSecret: SECRET, body: BODY, timestamp: TIMESTAMP, signature: SIGNATURE.replace("v0=", "v1=") }, AT)).toMatch(/malformed/);
  });
});
