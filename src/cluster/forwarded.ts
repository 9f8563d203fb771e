/**
 * A connection proxied from one process of the cluster to another (a `/ws` connection,
 * src/cluster/wsProxy.ts; an agent-control request, src/cluster/agentRouting.ts) arrives from the
 * proxying process's address. The proxy tells the receiving process the client's own address in a
 * header signed with the cluster's shared JWT_SECRET (HMAC-SHA256), so that the attempt and rate
 * limits go on counting per client.
 *
 * The signature covers the address, a time stamp, a random nonce and the receiving process's id:
 * a header is good for the one process it was made for, within {@link FORWARDED_MAX_AGE_MS}, once.
 * Anyone who saw one pass (the hop between processes is plain TCP) could otherwise send it again
 * to count their attempts against someone else's address. A header that does not verify (a
 * client's forgery, too old, for another process, or seen before) is ignored: the connection
 * counts as its peer's. The last two come only from a copy of a real header, and are logged.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Logger } from "../logger.ts";

export const FORWARDED_HEADER = "x-rsworld-forwarded";
/** A forwarded address is trusted this long after it was signed (either way: the processes' clocks may differ), ms. */
export const FORWARDED_MAX_AGE_MS = 30_000;
/**
 * Nonces remembered at most (each for {@link FORWARDED_MAX_AGE_MS}): far above the connections a
 * process is passed in that time. Past it, forwarded addresses are ignored until some expire,
 * rather than forgotten early and made replayable.
 */
export const MAX_REMEMBERED_NONCES = 200_000;

export interface ForwardedAddressOptions {
  /** The cluster's JWT_SECRET. */
  secret: string;
  /** The ids a header for this process may name (its Colyseus process id, its lease owner id). */
  ownIds: () => readonly string[];
  logger: Logger;
  now?: () => number;
}

export class ForwardedAddress {
  private readonly options: ForwardedAddressOptions;
  private readonly now: () => number;
  /** Nonces accepted, with when each stops mattering (its header's time stamp + the max age). */
  private readonly seen = new Map<string, number>();
  /** Each request's answer: the upgrade and request listeners, the gateway and the router all ask. */
  private readonly verified = new WeakMap<IncomingMessage, string | undefined>();

  constructor(options: ForwardedAddressOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  private mac(address: string, at: number, nonce: string, target: string): string {
    return createHmac("sha256", this.options.secret).update(`${address};${at};${nonce};${target}`).digest("base64url");
  }

  /** The header's value for a client's address, for the process `target` (its id) alone. */
  sign(address: string, target: string): string {
    const at = this.now();
    const nonce = randomBytes(16).toString("base64url");
    return [encodeURIComponent(address), at, nonce, encodeURIComponent(target), this.mac(address, at, nonce, target)].join(";");
  }

  /**
   * The client's address a request carries from another process of the cluster, if the header
   * verifies. Asked again about the same request, the same answer (its nonce is spent once).
   */
  verify(req: IncomingMessage): string | undefined {
    if (this.verified.has(req)) return this.verified.get(req);
    const address = this.check(req);
    this.verified.set(req, address);
    return address;
  }

  private check(req: IncomingMessage): string | undefined {
    const raw = req.headers[FORWARDED_HEADER];
    if (typeof raw !== "string") return undefined;
    const parts = raw.split(";");
    if (parts.length !== 5) return undefined;
    const [encodedAddress, atText, nonce, encodedTarget, mac] = parts as [string, string, string, string, string];
    if (!/^\d{1,16}$/.test(atText) || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return undefined;
    const at = Number(atText);
    const now = this.now();
    if (Math.abs(now - at) > FORWARDED_MAX_AGE_MS) return undefined;
    let address: string;
    let target: string;
    try {
      address = decodeURIComponent(encodedAddress);
      target = decodeURIComponent(encodedTarget);
    } catch {
      return undefined;
    }
    const expected = Buffer.from(this.mac(address, at, nonce, target));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    // Signed with the cluster's secret: from here on it is a real header, used where or when it should not be.
    const peer = req.socket.remoteAddress;
    if (!this.options.ownIds().includes(target)) {
      this.options.logger.warn(
        { peer, target },
        "a signed client address made for another process of the cluster: ignored, the connection counts as its peer's",
      );
      return undefined;
    }
    this.forgetExpired(now);
    if (this.seen.has(nonce)) {
      this.options.logger.warn({ peer, forwardedFor: address }, "a signed client address used again (replayed): ignored, the connection counts as its peer's");
      return undefined;
    }
    if (this.seen.size >= MAX_REMEMBERED_NONCES) {
      this.options.logger.warn({ peer }, "too many signed client addresses to remember: ignored, the connection counts as its peer's");
      return undefined;
    }
    this.seen.set(nonce, at + FORWARDED_MAX_AGE_MS);
    // An empty address (the proxy did not know it) says nothing: the connection counts as its peer's.
    return address === "" ? undefined : address;
  }

  /** Drops the nonces whose headers are too old to be accepted anyway (the map is in insertion order, nearly in time order). */
  private forgetExpired(now: number): void {
    for (const [nonce, until] of this.seen) {
      if (until >= now) {
        if (this.seen.size < MAX_REMEMBERED_NONCES) break;
        continue;
      }
      this.seen.delete(nonce);
    }
  }
}
