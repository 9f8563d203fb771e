/**
 * One login across the cluster: a process whose login finds the character's lease held by another
 * live process asks that process, through the presence (Redis in a cluster), to let the character
 * go. Each process listens on the channel of its own lease owner id; the holder answers by
 * handing the character over (WorldService.handOver: SESSION_REPLACED, saved, lease released
 * after the save), and the asking login takes the lease once it is free.
 */
import type { Presence } from "@colyseus/core";
import type { Logger } from "../logger.ts";

/** The presence channel of a process's lease owner id. */
export function takeoverChannel(ownerId: string): string {
  return `rsworld:takeover:${ownerId}`;
}

interface TakeoverRequest {
  characterId: string;
}

export class Takeovers {
  private readonly presence: Presence;
  private readonly ownerId: string;
  private readonly logger: Logger;
  private readonly listener: (message: unknown) => void;
  private started = false;

  constructor(deps: { presence: Presence; ownerId: string; logger: Logger; handOver: (characterId: string) => void }) {
    this.presence = deps.presence;
    this.ownerId = deps.ownerId;
    this.logger = deps.logger;
    this.listener = (message) => {
      const characterId = (message as Partial<TakeoverRequest> | null)?.characterId;
      if (typeof characterId !== "string") return;
      this.logger.info({ event: "handOver", characterId }, "another process takes a character over: handing it over");
      deps.handOver(characterId);
    };
  }

  async start(): Promise<void> {
    await this.presence.subscribe(takeoverChannel(this.ownerId), this.listener);
    this.started = true;
  }

  /** Asks the process holding the character (`ownerId`) to let it go. */
  async request(characterId: string, ownerId: string): Promise<void> {
    const request: TakeoverRequest = { characterId };
    await this.presence.publish(takeoverChannel(ownerId), request);
  }

  async close(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.presence.unsubscribe(takeoverChannel(this.ownerId), this.listener);
  }
}
