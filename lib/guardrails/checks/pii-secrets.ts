// API keys and other credentials by their published shapes: a vendor prefix
// and a body of the vendor's alphabet and length. Each prefix is found with
// indexOf and its body read once, so the scan is linear.
import { FindingList, isAsciiAlnum, isDigit, isAsciiLetter, isUpperAscii } from "./text";

interface KeyShape {
  prefix: string;
  /** Which characters the body may hold. */
  body: (code: number) => boolean;
  minBody: number;
  /** The body is exactly minBody long (AWS access key ids). */
  exact?: boolean;
  /** Not masked: "Bearer " stays, the token after it goes. */
  keepPrefix?: boolean;
}

const alnum = (code: number) => isAsciiAlnum(code);
const alnumDash = (code: number) => isAsciiAlnum(code) || code === 45 || code === 95;
const alnumUnderscore = (code: number) => isAsciiAlnum(code) || code === 95;
const upperAlnum = (code: number) => isUpperAscii(code) || isDigit(code);
/** base64 and base64url, with the dots of a JWT: what a bearer token is made of. */
const tokenChar = (code: number) => isAsciiAlnum(code) || code === 45 || code === 95 || code === 46 || code === 126 || code === 43 || code === 47 || code === 61;

const KEY_SHAPES: readonly KeyShape[] = [
  // OpenAI (sk-…, sk-proj-…, sk-svcacct-…) and Anthropic (sk-ant-…).
  { prefix: "sk-", body: alnumDash, minBody: 20 },
  // Stripe secret and restricted keys.
  { prefix: "sk_live_", body: alnum, minBody: 16 },
  { prefix: "sk_test_", body: alnum, minBody: 16 },
  { prefix: "rk_live_", body: alnum, minBody: 16 },
  { prefix: "rk_test_", body: alnum, minBody: 16 },
  // AWS access key ids (long-lived and temporary).
  { prefix: "AKIA", body: upperAlnum, minBody: 16, exact: true },
  { prefix: "ASIA", body: upperAlnum, minBody: 16, exact: true },
  // GitHub tokens: personal, OAuth, user-to-server, server-to-server, refresh; fine-grained PATs.
  { prefix: "ghp_", body: alnum, minBody: 36 },
  { prefix: "gho_", body: alnum, minBody: 36 },
  { prefix: "ghu_", body: alnum, minBody: 36 },
  { prefix: "ghs_", body: alnum, minBody: 36 },
  { prefix: "ghr_", body: alnum, minBody: 36 },
  { prefix: "github_pat_", body: alnumUnderscore, minBody: 22 },
  // GitLab personal access tokens.
  { prefix: "glpat-", body: alnumDash, minBody: 20 },
  // Slack bot, user, app, refresh and legacy tokens.
  { prefix: "xoxb-", body: alnumDash, minBody: 10 },
  { prefix: "xoxp-", body: alnumDash, minBody: 10 },
  { prefix: "xoxa-", body: alnumDash, minBody: 10 },
  { prefix: "xoxr-", body: alnumDash, minBody: 10 },
  { prefix: "xoxs-", body: alnumDash, minBody: 10 },
  // Google API keys.
  { prefix: "AIza", body: alnumDash, minBody: 35 },
  // JSON Web Tokens: a base64url header that starts {"…
  { prefix: "eyJ", body: tokenChar, minBody: 30 },
  // An HTTP bearer credential: the token after the word.
  { prefix: "Bearer ", body: tokenChar, minBody: 20, keepPrefix: true },
];

/** Random keys mix letters and digits; "sk-this-is-not-a-real-key" does not. */
function looksRandom(text: string, start: number, end: number): boolean {
  let letters = false;
  let digits = false;
  for (let index = start; index < end && !(letters && digits); index += 1) {
    const code = text.charCodeAt(index);
    letters ||= isAsciiLetter(code);
    digits ||= isDigit(code);
  }
  return letters && digits;
}

const PRIVATE_KEY_BEGIN = "-----BEGIN ";
const PRIVATE_KEY_LABEL = /^-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY-----/;
/** A PEM block is a few KB; past this the END line is not looked for (the header alone is masked). */
const PRIVATE_KEY_MAX = 20_000;

/** Every key shape, each finding from the prefix (or the token after "Bearer ") to the end of the body. */
export function findApiKeys(text: string, findings: FindingList): void {
  for (const shape of KEY_SHAPES) {
    let from = 0;
    while (!findings.isFull) {
      const at = text.indexOf(shape.prefix, from);
      if (at < 0) break;
      from = at + 1;
      if (alnumDash(text.charCodeAt(at - 1))) continue;
      const bodyStart = at + shape.prefix.length;
      let end = bodyStart;
      while (end < text.length && shape.body(text.charCodeAt(end))) end += 1;
      // A trailing dot ends the sentence, not the token.
      while (end > bodyStart && text.charCodeAt(end - 1) === 46) end -= 1;
      const length = end - bodyStart;
      if (shape.exact ? length !== shape.minBody : length < shape.minBody) continue;
      if (!looksRandom(text, bodyStart, end)) continue;
      findings.add("api_key", shape.keepPrefix ? bodyStart : at, end);
      from = end;
    }
  }
  findPrivateKeys(text, findings);
}

function findPrivateKeys(text: string, findings: FindingList): void {
  let from = 0;
  while (!findings.isFull) {
    const at = text.indexOf(PRIVATE_KEY_BEGIN, from);
    if (at < 0) return;
    from = at + 1;
    const header = PRIVATE_KEY_LABEL.exec(text.slice(at, at + 80));
    if (!header) continue;
    const footer = `-----END ${header[1] ?? ""}PRIVATE KEY-----`;
    const footerAt = text.slice(at, at + PRIVATE_KEY_MAX).indexOf(footer, header[0].length);
    const end = footerAt >= 0 ? at + footerAt + footer.length : at + header[0].length;
    findings.add("api_key", at, end);
    from = end;
  }
}
