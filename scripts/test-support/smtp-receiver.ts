// A real SMTP server on loopback (the smtp-server package, which implements the
// protocol nodemailer speaks) that keeps every message it receives, parsed by
// mailparser, for tests of approval emails.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

export interface ReceivedMail {
  /** RCPT TO addresses of the SMTP envelope. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
}

export interface SmtpReceiver {
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** The next `n` messages are refused with a temporary failure (451). */
  failNext(n: number): void;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (failures > 0) {
            failures--;
            const error: Error & { responseCode?: number } = new Error("try again later");
            error.responseCode = 451;
            callback(error);
            return;
          }
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            headers: parsed.headers,
          });
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    failNext: (n) => {
      failures = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
