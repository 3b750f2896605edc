import { describe, expect, it } from "vitest";
import type { GuardrailVerdict, PiiDetector } from "../schemas";
import { evaluateDeterministicCheck, ibanChecksumValid, luhnValid, maskFindings } from "./index";

function pii(text: string, ...detectors: PiiDetector[]): GuardrailVerdict {
  const verdict = evaluateDeterministicCheck({ type: "pii", detectors }, text);
  if (!verdict) throw new Error("pii is deterministic");
  return verdict;
}

/** The texts the detector found, in order. */
function found(text: string, ...detectors: PiiDetector[]): string[] {
  return pii(text, ...detectors).findings.map((finding) => text.slice(finding.start, finding.end));
}

describe("card numbers", () => {
  it("finds Luhn-valid numbers, grouped by spaces or dashes or not at all", () => {
    expect(found("card 4111 1111 1111 1111 exp 12/28", "card")).toEqual(["4111 1111 1111 1111"]);
    expect(found("5500-0000-0000-0004.", "card")).toEqual(["5500-0000-0000-0004"]);
    expect(found("amex 378282246310005 ok", "card")).toEqual(["378282246310005"]);
    expect(found("(4242424242424242)", "card")).toEqual(["4242424242424242"]);
  });

  it("does not take a random 16-digit number failing Luhn for a card", () => {
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(found("order 4111111111111112 shipped", "card")).toEqual([]);
    expect(found("order 4111 1111 1111 1112 shipped", "card")).toEqual([]);
    expect(pii("order 4111111111111112", "card").tripped).toBe(false);
  });

  it("finds the card inside a longer run of groups (a CVV after it) but not inside a longer plain number", () => {
    expect(found("4111 1111 1111 1111 123", "card")).toEqual(["4111 1111 1111 1111"]);
    expect(found("id 94111111111111111", "card")).toEqual([]);
    expect(found("id 41111111111111110000", "card")).toEqual([]);
    expect(found("token4111111111111111", "card")).toEqual([]);
    expect(found("4111111111111111abc", "card")).toEqual([]);
  });

  it("refuses repeated digits and issuer ranges no network uses, even when Luhn holds", () => {
    expect(luhnValid("0000000000000000")).toBe(true);
    expect(found("0000 0000 0000 0000", "card")).toEqual([]);
    // 8 is no card network's leading digit; this number passes Luhn.
    expect(luhnValid("8111111111111112")).toBe(true);
    expect(found("8111111111111112", "card")).toEqual([]);
  });

  it("finds two cards in a row and each card of a list", () => {
    expect(found("4111111111111111 5500000000000004", "card")).toEqual(["4111111111111111", "5500000000000004"]);
    expect(found("a: 4012 8888 8888 1881, b: 6011 1111 1111 1117", "card")).toEqual(["4012 8888 8888 1881", "6011 1111 1111 1117"]);
  });
});

describe("IBANs", () => {
  it("finds IBANs with a valid mod-97 check, grouped or not, upper or lower case", () => {
    expect(ibanChecksumValid("DE89370400440532013000")).toBe(true);
    expect(found("IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX", "iban")).toEqual(["DE89 3704 0044 0532 0130 00"]);
    expect(found("GB82WEST12345698765432.", "iban")).toEqual(["GB82WEST12345698765432"]);
    expect(found("pay fr14 2004 1010 0505 0001 3m02 606", "iban")).toEqual(["fr14 2004 1010 0505 0001 3m02 606"]);
  });

  it("refuses a wrong check digit, an unknown country and a wrong length", () => {
    expect(ibanChecksumValid("DE88370400440532013000")).toBe(false);
    expect(found("DE88 3704 0044 0532 0130 00", "iban")).toEqual([]);
    expect(found("ZZ89370400440532013000", "iban")).toEqual([]);
    expect(found("DE8937040044053201300", "iban")).toEqual([]);
    expect(found("DE89370400440532013000X", "iban")).toEqual([]);
  });
});

describe("email addresses", () => {
  it("finds addresses and stops at what cannot be in one", () => {
    expect(found("write to john.doe+tag@mail.example.co.uk, or <ops@example.com>.", "email")).toEqual(["john.doe+tag@mail.example.co.uk", "ops@example.com"]);
  });

  it("does not take handles, version pins or a bare @ for addresses", () => {
    expect(found("ping @alice about pkg@1.2.3 and user@localhost or a@b.c", "email")).toEqual([]);
    expect(found("a @ b . com", "email")).toEqual([]);
  });
});

describe("phone numbers", () => {
  it("finds international and national forms", () => {
    expect(found("call +44 20 7946 0958 now", "phone")).toEqual(["+44 20 7946 0958"]);
    expect(found("call +1 (555) 123-4567", "phone")).toEqual(["+1 (555) 123-4567"]);
    expect(found("call (555) 123-4567", "phone")).toEqual(["(555) 123-4567"]);
    expect(found("call 555.123.4567", "phone")).toEqual(["555.123.4567"]);
    expect(found("ruf 030 1234567 an", "phone")).toEqual(["030 1234567"]);
    expect(found("appelez 06 12 34 56 78", "phone")).toEqual(["06 12 34 56 78"]);
    expect(found("mobile 07700900123", "phone")).toEqual(["07700900123"]);
    expect(found("0049 30 1234567", "phone")).toEqual(["0049 30 1234567"]);
  });

  it("does not take dates, amounts, plain numbers, versions or addresses for phone numbers", () => {
    for (const text of ["on 2024-01-15", "on 15.01.2024", "on 01/02/2024", "total 1 234 567 EUR", "$1,234,567.89", "order 1234567890", "v1.2.3.4", "192.168.100.200", "+15 points", "2+5551234567", "a 12 345 678 b", "x-555-123-4567"]) {
      expect(found(text, "phone"), text).toEqual([]);
    }
  });

  it("leaves the digits of a card to the card detector", () => {
    const text = "4111 1111 1111 1111";
    expect(pii(text, "phone", "card").findings.map((finding) => finding.detector)).toEqual(["card"]);
  });
});

describe("API keys and credentials", () => {
  it("finds the vendors' key shapes", () => {
    const keys = [
      "sk-abcdefghij0123456789KLMN",
      "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv",
      "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2",
      "AKIAIOSFODNN7EXAMPLE",
      "ghp_0123456789abcdefghijABCDEFGHIJ012345",
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
      "xoxb-1234567890-abcdefghij",
      "xoxp-1234567890-0987654321-abcdefABCDEF",
      "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
      "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    ];
    for (const key of keys) expect(found(`use ${key}.`, "api_key"), key).toEqual([key]);
  });

  it("masks the token after Bearer, and a PEM private key from its header to its footer", () => {
    const text = "Authorization: Bearer abc123DEF456ghi789JKL0mn";
    expect(found(text, "api_key")).toEqual(["abc123DEF456ghi789JKL0mn"]);
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----";
    expect(found(`key:\n${pem}\nbye`, "api_key")).toEqual([pem]);
  });

  it("does not take words that merely start like a key for one", () => {
    for (const text of ["ask-me-anything-about-everything-here", "sk-this-is-not-a-real-key-at-all", "AKIA1234", "AKIAIOSFODNN7EXAMPLEEXTRA", "the risk-free rate", "ghp_short1"]) {
      expect(found(text, "api_key"), text).toEqual([]);
    }
  });
});

describe("the pii verdict", () => {
  it("says what it found by kind and count, never the text itself", () => {
    const text = "a@example.com, b@example.com and card 4111 1111 1111 1111";
    const verdict = pii(text, "email", "card", "phone");
    expect(verdict.tripped).toBe(true);
    expect(verdict.reason).toBe("The text contains 2 email addresses and a card number.");
    expect(verdict.reason).not.toContain("example");
    expect(verdict.reason).not.toContain("4111");
    expect(pii("nothing here", "email", "card").reason).toBe("The text contains no email addresses or card numbers.");
  });

  it("masks each finding with a placeholder naming its kind", () => {
    const text = "card 4111-1111-1111-1111, mail me@example.com, iban DE89370400440532013000";
    const verdict = pii(text, "card", "email", "iban");
    expect(maskFindings(text, verdict.findings)).toBe("card [redacted card], mail [redacted email], iban [redacted iban]");
  });
});
