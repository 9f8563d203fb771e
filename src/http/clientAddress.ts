/**
 * The client's address behind the proxies the server is told to trust (TRUST_PROXY), the way
 * Express computes `req.ip` for the REST rate limits: walk from the peer back through
 * `X-Forwarded-For` while the hop is trusted.
 */
import type { IncomingMessage } from "node:http";

/** Express's compiled `trust proxy` function (`app.get("trust proxy fn")`). */
export type TrustFn = (address: string, hop: number) => boolean;

export function clientAddress(trust: TrustFn, req: IncomingMessage): string | undefined {
  const peer = req.socket.remoteAddress;
  if (peer === undefined) return undefined;
  const header = req.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .reverse();
  const chain = [peer, ...forwarded];
  for (let i = 0; i < chain.length - 1; i++) if (!trust(chain[i]!, i)) return chain[i];
  return chain[chain.length - 1];
}

/**
 * Colyseus takes a client's address (`AuthContext.ip`) from `X-Real-IP` (then `X-Forwarded-For`)
 * whoever sent it. Every request and upgrade gets `X-Real-IP` set to the address computed above
 * (`address`: clientAddress's, or in a cluster a proxied connection's verified client address)
 * before Colyseus reads it, so a client cannot pick its own (the Colyseus attempt limit keys on it).
 * `forwarded`: the address is a verified client address another process passed on, which
 * Express's `req.ip` (the REST limits' key) would not know: it becomes `req.ip` too (an own
 * property, in front of Express's getter).
 */
export function pinRealIp(address: string | undefined, req: IncomingMessage, forwarded = false): void {
  if (address === undefined) delete req.headers["x-real-ip"];
  else req.headers["x-real-ip"] = address;
  if (forwarded && address !== undefined) Object.defineProperty(req, "ip", { value: address, enumerable: true, configurable: true });
}
