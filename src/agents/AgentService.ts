/**
 * AI agents: an agent plays one character of its owner's account, with a token scoped to that
 * character. Its goal state (current goal, paused flag) is kept per agent in `agent_mappings`;
 * every change is pushed to the character's live connection as `agent:goal`, owner messages as
 * `agent:message`, and the agent reports progress with `agent:goalProgress`.
 *
 * Goal pause (spec "Agent goal pause"): stop clears the goal, cancels the current path (the
 * agent idles) and blocks automatic goal setting; chat commands still work. Resume lifts it.
 */
import { randomUUID } from "node:crypto";
import { AgentMapping, Character } from "../../entities/index.ts";
import type { IAgentMapping } from "../../entities/AgentMapping.ts";
import type { Principal, TokenService } from "../auth/tokens.ts";
import type { Database } from "../db/orm.ts";
import { chebyshev } from "../game/map/CollisionMap.ts";
import type { PlayerData } from "../game/world/Player.ts";
import { VIEW_RADIUS } from "../game/world/World.ts";
import { ForbiddenError, HttpError, NotFoundError } from "../http/errors.ts";
import type { ContentRegistry } from "../manifests/registry.ts";
import { findCharacter, loadData } from "../persistence/players.ts";
import type { WorldService } from "../sessions/WorldService.ts";

export const AGENT_TOKEN_TTL_S = 30 * 24 * 3600;
export const MAX_AGENTS_PER_ACCOUNT = 10;

export interface Goal {
  id: string;
  type: string;
  description: string;
  target?: string;
  progress: number;
  startedAt: string;
  lockedBy: "manual" | "autonomous";
}

export interface AvailableGoal {
  type: string;
  description: string;
  targets: string[];
}

export const QUICK_COMMANDS = [
  { id: "stop", label: "Stop", description: "Pause goals and stand still" },
  { id: "resume", label: "Resume", description: "Resume autonomous goals" },
  { id: "bank", label: "Go to bank", description: "Walk to the nearest bank" },
  { id: "home", label: "Go home", description: "Walk back to the spawn" },
] as const;

function hasItem(data: PlayerData, test: (itemId: string) => boolean): boolean {
  return data.inventory.some((s) => s !== null && test(s.itemId)) || Object.values(data.equipment).some((s) => test(s.itemId));
}

/** Goals a character can pursue now, from the content and what it carries. */
export function availableGoals(content: ContentRegistry, data: PlayerData): AvailableGoal[] {
  const goals: AvailableGoal[] = [];
  const nodes = [...content.resources.values()];
  const placed = new Set(content.areas.flatMap((a) => a.resources.map((r) => r.resourceId)));
  const owns = (tool: string) => hasItem(data, (id) => id === tool || id.endsWith(`_${tool.split("_").pop()}`));
  for (const [skill, label] of [
    ["woodcutting", "Chop trees"],
    ["mining", "Mine rocks"],
    ["fishing", "Catch fish"],
  ] as const) {
    const usable = nodes.filter((n) => n.gathering === skill && placed.has(n.id) && n.levelRequired <= data.skills[skill].level && owns(n.toolRequired));
    if (usable.length > 0) goals.push({ type: skill, description: label, targets: usable.map((n) => n.id) });
  }
  const mobs = content.areas.flatMap((a) => a.mobSpawns.map((m) => m.mobId));
  if (mobs.length > 0) goals.push({ type: "combat", description: "Fight monsters", targets: [...new Set(mobs)] });
  const logs = new Set(content.recipes.firemaking.map((r) => r.log));
  if (hasItem(data, (id) => id === "tinderbox") && hasItem(data, (id) => logs.has(id))) {
    goals.push({ type: "firemaking", description: "Light fires", targets: [...logs] });
  }
  const raw = new Set(content.recipes.cooking.map((r) => r.raw));
  if (hasItem(data, (id) => raw.has(id))) goals.push({ type: "cooking", description: "Cook food", targets: [...raw] });
  if (content.areas.some((a) => a.npcs.some((n) => n.type === "bank"))) goals.push({ type: "banking", description: "Bank items", targets: [] });
  goals.push({ type: "explore", description: "Explore the world", targets: content.areas.map((a) => a.id) });
  goals.push({ type: "idle", description: "Stand still", targets: [] });
  return goals;
}

export class AgentService {
  private readonly db: Database;
  private readonly world: WorldService;
  private readonly content: ContentRegistry;
  private readonly tokens: TokenService;

  constructor(deps: { db: Database; world: WorldService; content: ContentRegistry; tokens: TokenService }) {
    this.db = deps.db;
    this.world = deps.world;
    this.content = deps.content;
    this.tokens = deps.tokens;
  }

  private token(row: { agentId: string; accountId: string; characterId: string; tokenGeneration: number }): Promise<string> {
    return this.tokens.signServiceToken({ accountId: row.accountId, characterId: row.characterId, agentId: row.agentId, agentTokenGeneration: row.tokenGeneration }, AGENT_TOKEN_TTL_S);
  }

  /**
   * Under the account's lock (the one logins and character creation and deletion take), so two
   * registrations cannot both pass the count, and none can add a mapping to a character that a
   * deletion has just taken its mappings from.
   */
  async register(owner: Principal, characterId: string, name: string | undefined): Promise<{ agent: IAgentMapping; token: string }> {
    return this.world.withAccount(owner.accountId, async () => {
      const character = await findCharacter(this.db, characterId);
      if (character === null) throw new NotFoundError(`no character ${characterId}`);
      if (character.accountId !== owner.accountId) throw new ForbiddenError("that character belongs to another account");
      const em = this.db.em();
      if ((await em.count(AgentMapping, { accountId: owner.accountId })) >= MAX_AGENTS_PER_ACCOUNT) {
        throw new HttpError(409, "TOO_MANY_AGENTS", `an account has at most ${MAX_AGENTS_PER_ACCOUNT} agents`);
      }
      const agent = em.create(AgentMapping, { agentId: randomUUID(), accountId: owner.accountId, characterId, name: name ?? null });
      await em.flush();
      return { agent, token: await this.token(agent) };
    });
  }

  async list(accountId: string): Promise<IAgentMapping[]> {
    return this.db.em().find(AgentMapping, { accountId }, { orderBy: { createdAt: "asc" } });
  }

  /**
   * Replaces the agent's token: every older one stops working, and a session opened with one ends
   * at once (its world connection and trade seats, as when the agent is deleted).
   */
  async newToken(agent: IAgentMapping): Promise<string> {
    const em = this.db.em();
    await em.nativeUpdate(AgentMapping, { agentId: agent.agentId }, { tokenGeneration: agent.tokenGeneration + 1 });
    const row = await em.findOneOrFail(AgentMapping, { agentId: agent.agentId });
    this.world.revokeAgent(agent.agentId, agent.characterId, "this agent's token was replaced");
    return this.token(row);
  }

  async remove(agent: IAgentMapping): Promise<void> {
    await this.db.em().nativeDelete(AgentMapping, { agentId: agent.agentId });
    this.world.revokeAgent(agent.agentId, agent.characterId, "this agent was deleted");
  }

  /** 404 unknown agent; 403 unless the owner's account (not another agent), the agent itself, or an admin. */
  async access(p: Principal, agentId: string): Promise<IAgentMapping> {
    const agent = await this.db.em().findOne(AgentMapping, { agentId });
    if (agent === null) throw new NotFoundError(`no agent ${agentId}`);
    const isSelf = p.agentId === agentId;
    const isOwner = p.agentId === undefined && p.characterId === undefined && p.accountId === agent.accountId;
    if (!isSelf && !isOwner && p.role !== "admin") throw new ForbiddenError("not your agent");
    return agent;
  }

  /** Whether a token's agent still exists for its character, at the token's generation (deleted agents' and replaced tokens stop working). */
  async isLive(agentId: string, characterId: string | undefined, generation: number): Promise<boolean> {
    const agent = await this.db.em().findOne(AgentMapping, { agentId });
    return agent !== null && agent.characterId === characterId && agent.tokenGeneration === generation;
  }

  private async characterData(characterId: string): Promise<PlayerData> {
    const live = this.world.world.players.get(characterId);
    if (live !== undefined) return live.data;
    const row = await findCharacter(this.db, characterId);
    if (row === null) throw new NotFoundError(`the agent's character ${characterId} no longer exists`);
    return loadData(this.db.em(), row);
  }

  async goalResponse(agent: IAgentMapping): Promise<{ success: true; goal: Goal | null; goalsPaused: boolean; availableGoals: AvailableGoal[] }> {
    const data = await this.characterData(agent.characterId);
    return { success: true, goal: (agent.goal as Goal | null) ?? null, goalsPaused: agent.goalsPaused, availableGoals: availableGoals(this.content, data) };
  }

  private async save(agent: IAgentMapping, changes: { goal?: Goal | null; goalsPaused?: boolean }): Promise<void> {
    await this.db.em().nativeUpdate(AgentMapping, { agentId: agent.agentId }, { ...changes, updatedAt: new Date() });
    if (changes.goal !== undefined) agent.goal = changes.goal as unknown as Record<string, unknown> | null;
    if (changes.goalsPaused !== undefined) agent.goalsPaused = changes.goalsPaused;
    this.push(agent, "agent:goal", { agentId: agent.agentId, goal: agent.goal ?? null, goalsPaused: agent.goalsPaused });
  }

  /** Sends to the agent's character's live connection; false when it is offline. */
  push(agent: IAgentMapping, type: string, data: object): boolean {
    const conn = this.world.connectionOf(agent.characterId);
    if (conn === undefined) return false;
    conn.send(type, data);
    return true;
  }

  async setGoal(agent: IAgentMapping, input: { type: string; target?: string | undefined; description?: string | undefined; lockedBy: Goal["lockedBy"] }): Promise<void> {
    if (input.lockedBy === "autonomous" && agent.goalsPaused) {
      throw new HttpError(409, "GOALS_PAUSED", "goals are paused: automatic goal setting is blocked until resumed");
    }
    const options = availableGoals(this.content, await this.characterData(agent.characterId));
    const option = options.find((g) => g.type === input.type);
    if (option === undefined) throw new HttpError(422, "GOAL_UNAVAILABLE", `goal "${input.type}" is not available now (available: ${options.map((g) => g.type).join(", ")})`);
    if (input.target !== undefined && option.targets.length > 0 && !option.targets.includes(input.target)) {
      throw new HttpError(422, "GOAL_UNAVAILABLE", `target "${input.target}" is not available for ${input.type}`);
    }
    const goal: Goal = {
      id: randomUUID(),
      type: input.type,
      description: input.description ?? option.description,
      ...(input.target !== undefined ? { target: input.target } : {}),
      progress: 0,
      startedAt: new Date().toISOString(),
      lockedBy: input.lockedBy,
    };
    await this.save(agent, { goal });
  }

  async stop(agent: IAgentMapping): Promise<void> {
    // The game's own stop action, queued like any input of this player: path, running and the
    // current action (a gathering or a fight) all end.
    this.world.world.enqueue(agent.characterId, "player:action", { action: "stop" });
    await this.save(agent, { goal: null, goalsPaused: true });
  }

  async resume(agent: IAgentMapping): Promise<void> {
    await this.save(agent, { goalsPaused: false });
  }

  message(agent: IAgentMapping, from: Principal, message: string): { delivered: boolean; id: string } {
    const id = randomUUID();
    const delivered = this.push(agent, "agent:message", { id, agentId: agent.agentId, from: from.agentId === agent.agentId ? "agent" : "owner", message, timestamp: Date.now() });
    return { delivered, id };
  }

  /** `agent:goalProgress` from the agent's own connection. */
  async reportProgress(p: Principal, data: { goalId: string; progress: number }): Promise<{ code: string; message: string } | void> {
    if (p.agentId === undefined) return { code: "FORBIDDEN", message: "only an agent's own connection reports goal progress" };
    const agent = await this.db.em().findOne(AgentMapping, { agentId: p.agentId });
    const goal = agent?.goal as Goal | null | undefined;
    if (agent === null || goal == null || goal.id !== data.goalId) return { code: "INVALID_GOAL", message: "no such current goal" };
    await this.save(agent, { goal: { ...goal, progress: data.progress } });
  }

  async quickActions(agent: IAgentMapping): Promise<object> {
    const data = await this.characterData(agent.characterId);
    const here = { x: data.x, z: data.z };
    const near = <T extends { position: { x: number; z: number } }>(list: T[]) => list.filter((e) => chebyshev(e.position, here) <= VIEW_RADIUS);
    const areas = this.content.areas;
    const nearby = [
      ...areas.flatMap((a) => near(a.npcs).map((n) => ({ kind: "npc", id: n.id, type: n.type, x: n.position.x, z: n.position.z }))),
      ...areas.flatMap((a) => near(a.resources).map((r) => ({ kind: "resource", id: r.resourceId, type: r.type, x: r.position.x, z: r.position.z }))),
      ...areas.flatMap((a) => near(a.stations).map((s) => ({ kind: "station", id: s.id ?? s.type, type: s.type, x: s.position.x, z: s.position.z }))),
    ];
    return {
      success: true,
      agentId: agent.agentId,
      position: { x: data.x, y: data.y, z: data.z },
      nearby,
      availableGoals: availableGoals(this.content, data),
      quickCommands: QUICK_COMMANDS,
      inventory: data.inventory.flatMap((s, slot) => (s === null ? [] : [{ slot, itemId: s.itemId, quantity: s.quantity }])),
    };
  }

  async mappingView(agent: IAgentMapping): Promise<object> {
    const character = await this.db.em().findOne(Character, { id: agent.characterId });
    return {
      success: true,
      agentId: agent.agentId,
      accountId: agent.accountId,
      characterId: agent.characterId,
      characterName: character?.name ?? null,
      name: agent.name ?? null,
      createdAt: agent.createdAt,
    };
  }
}
