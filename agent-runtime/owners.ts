/**
 * Whose chat commands an agent obeys: its owner's characters only. Anyone near may address an agent
 * by name, and before, anyone could pause it (saved on the server) or lead it away with "follow"
 * (security finding 1). The owner's characters are read from the agent's mapping
 * (`GET /api/agents/mapping/:agentId`, `ownerCharacterIds`) with the agent's own token: at the first
 * command, and again when a character it does not know addresses it, at most once every
 * {@link OWNER_REFRESH_MS} (a character the owner has just made is known within that time; a
 * stranger's lines cannot make the runtime ask the server more often).
 */
import type { ServerApi } from "./serverApi.ts";

/** How often, at most, the owner's characters are read again for an unknown speaker, ms. */
export const OWNER_REFRESH_MS = 10_000;

export class OwnerCharacters {
  private ids = new Set<string>();
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;
  private readonly api: ServerApi;
  private readonly agentId: string;
  private readonly token: string;
  private readonly now: () => number;

  constructor(api: ServerApi, agentId: string, token: string, now: () => number = Date.now) {
    this.api = api;
    this.agentId = agentId;
    this.token = token;
    this.now = now;
  }

  /**
   * Whether the character is one of the owner's. False when the server cannot say (unreachable,
   * the agent deleted): a command nobody can vouch for is not obeyed.
   */
  async has(characterId: string): Promise<boolean> {
    if (this.ids.has(characterId)) return true;
    if (this.now() - this.readAt >= OWNER_REFRESH_MS) await this.read();
    return this.ids.has(characterId);
  }

  private read(): Promise<void> {
    this.reading ??= this.api
      .mapping(this.agentId, this.token)
      .then(
        (m) => void (this.ids = new Set(m.ownerCharacterIds)),
        () => {
          // Kept as it was: the characters known stay the owner's, nobody new is trusted.
        },
      )
      .finally(() => {
        this.readAt = this.now();
        this.reading = undefined;
      });
    return this.reading;
  }
}
