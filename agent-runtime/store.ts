/**
 * The runtime's own small store: the agents it was given, so that a restart picks them up again.
 * One JSON file under the world's `local/` (written whole to a temporary file, then renamed, so a
 * crash never leaves half a file), readable by its owner only: it holds agents' tokens.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { FOCUSES } from "./brain/focus.ts";

const record = z.object({
  agentId: z.string().min(1),
  token: z.string().min(1),
  characterId: z.string(),
  name: z.string(),
  ownerAccountId: z.string().min(1),
  /** Whether it should play: false after DELETE /agents/:id or a final refusal by the server. */
  running: z.boolean(),
  /** Why it no longer plays (the server's refusal, its owner's stop): shown again after a restart. */
  stoppedReason: z.string().optional(),
  /** Its owner's standing instruction (brain/focus.ts), kept across restarts. */
  focus: z.enum(FOCUSES).optional(),
  /** For agents the runtime spawned itself (`--spawn`): their owner's token, to list them. */
  ownerToken: z.string().optional(),
});
export type StoredAgent = z.infer<typeof record>;
const file = z.object({ version: z.literal(1), agents: z.array(record) });

export class AgentStore {
  readonly path: string;
  private readonly agents = new Map<string, StoredAgent>();

  constructor(filePath: string) {
    this.path = filePath;
  }

  /** Reads the file; a missing one is an empty store, an unreadable one an error (never overwritten blindly). */
  load(): StoredAgent[] {
    let text: string;
    try {
      text = fs.readFileSync(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const parsed = file.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.path} is not an agent-runtime store: ${parsed.error.issues[0]!.message}`);
    for (const a of parsed.data.agents) this.agents.set(a.agentId, a);
    return parsed.data.agents;
  }

  get(agentId: string): StoredAgent | undefined {
    return this.agents.get(agentId);
  }

  all(): StoredAgent[] {
    return [...this.agents.values()];
  }

  put(agent: StoredAgent): void {
    this.agents.set(agent.agentId, agent);
    this.save();
  }

  private save(): void {
    fs.mkdirSync(path.dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, agents: this.all() }, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, this.path);
  }
}
