/**
 * A `/ws` connection proxied from one process of the cluster to another (src/cluster/wsProxy.ts)
 * arrives from the proxying process's address. The proxy tells the receiving process the client's
 * own address in a header signed with the cluster's shared JWT_SECRET (HMAC-SHA256, with a time
 * stamp), so that the attempt and rate limits go on counting per client. A header that does not
 * verify (a client's forgery, or too old) is ignored: the connection counts as its peer's.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const FORWARDED_HEADER = "x-rsworld-forwarded";
/** A forwarded address is trusted this long after it was signed, ms. */
export const FORWARDED_MAX_AGE_MS = 30_000;

export class ForwardedAddress {
  private readonly secret: string;
  private readonly now: () => number;

  constructor(secret: string, now: () => number = Date.now) {
    this.secret = secret;
    this.now = now;
  }

  private mac(address: string, at: number): string {
    return createHmac("sha256", this.secret).update(`${address};${at}`).digest("base64url");
  }

  /** The header's value for a client's address. */
  sign(address: string): string {
    const at = this.now();
    return `${encodeURIComponent(address)};${at};${this.mac(address, at)}`;
  }

  /** The client's address a request carries from another process of the cluster, if the header verifies. */
  verify(req: IncomingMessage): string | undefined {
    const raw = req.headers[FORWARDED_HEADER];
    if (typeof raw !== "string") return undefined;
    const [encoded, atText, mac] = raw.split(";");
    if (encoded === undefined || atText === undefined || mac === undefined || !/^\d{1,16}$/.test(atText)) return undefined;
    const at = Number(atText);
    if (Math.abs(this.now() - at) > FORWARDED_MAX_AGE_MS) return undefined;
    let address: string;
    try {
      address = decodeURIComponent(encoded);
    } catch {
      return undefined;
    }
    const expected = Buffer.from(this.mac(address, at));
    const given = Buffer.from(mac);
    // An empty address (the proxy did not know it) says nothing: the connection counts as its peer's.
    return address !== "" && expected.length === given.length && timingSafeEqual(expected, given) ? address : undefined;
  }
}
