import net from "node:net";

// Below Linux's ephemeral range (32768–60999): outgoing connections and the
// Temporal dev server's many internal listeners take ports from that range,
// so a port chosen there can be taken between our check and our bind.
const LOW = 20_000;
const HIGH = 32_000;

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

const handedOut = new Set<number>();

/** A TCP port on 127.0.0.1 that is free now and outside the ephemeral range (never the same twice per process). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(port)) continue;
    if (await canBind(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port found between ${LOW} and ${HIGH}`);
}
