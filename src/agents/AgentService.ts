/**
 * AI agents: an agent plays one character of its owner's account, with a token scoped to that
 * character. Its goal state (current goal, paused flag) is kept per agent in `agent_mappings`;
 * an agent's connection is told it as `agent:goal` when it logs in (see greet) and on every
 * change, owner messages come as `agent:message`, and the agent reports progress with
 * `agent:goalProgress`.
 *
 * Goal pause (spec "Agent goal pause"): stop clears the goal, cancels the current path (the
 * agent idles) and blocks automatic goal setting; chat commands still work. Resume lifts it.
 */
import { randomUUID } from "node:crypto";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import { AgentMapping, Character } from "../../entities/index.ts";
import type { IAgentMapping } from "../../entities/AgentMapping.ts";
import type { Principal, TokenService } from "../auth/tokens.ts";
import type { Database } from "../db/orm.ts";
import { chebyshev } from "../game/map/CollisionMap.ts";
import type { PlayerData } from "../game/world/Player.ts";
import { VIEW_RADIUS } from "../game/world/World.ts";
import { ForbiddenError, HttpError, NotFoundError } from "../httpError.ts";
import type { ContentRegistry } from "../manifests/registry.ts";
import { findCharacter, loadData } from "../persistence/players.ts";
import { isGeneral } from "../game/store.ts";
import { questGoal } from "./questGoals.ts";
import { goalContent, MAKING_KINDS } from "./goalContent.ts";
import type { ServerEvent } from "../game/serverEvents.ts";
import type { AgentGreeting, WorldService } from "../sessions/WorldService.ts";

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

/** An entry of quick-actions' `nearby`: `id` is the instance (a `player:action` targetId), `ref` its content id. */
export interface NearbyEntry {
  kind: "npc" | "resource" | "station" | "place";
  id: string;
  ref: string;
  type: string;
  x: number;
  z: number;
  /** Resources only: depleted until it respawns. */
  depleted?: boolean;
}

export const QUICK_COMMANDS = [
  { id: "stop", label: "Stop", description: "Pause goals and stand still" },
  { id: "resume", label: "Resume", description: "Resume autonomous goals" },
  { id: "bank", label: "Go to bank", description: "Walk to the nearest bank" },
  { id: "home", label: "Go home", description: "Walk back to the spawn" },
] as const;

/** The goal state without the options, which are computed when it is sent (from the live character). */
type GoalState = Omit<ServerEvent<"agent:goal">, "availableGoals">;

/** What a connection held for an agent during its greeting: the goal state to send, the events to send after. */
interface Hold {
  state: GoalState | undefined;
  queued: { type: string; data: object }[];
}

/** The agent's goal state as `agent:goal` carries it (the options are added when it is sent). */
function goalEvent(agent: IAgentMapping): GoalState {
  return { agentId: agent.agentId, goal: (agent.goal ?? null) as GoalState["goal"], goalsPaused: agent.goalsPaused };
}

function hasItem(data: PlayerData, test: (itemId: string) => boolean): boolean {
  return data.inventory.some((s) => s !== null && test(s.itemId)) || Object.values(data.equipment).some((s) => test(s.itemId));
}

export { MAKING_KINDS };

/**
 * Recipes (ids) of MAKING_KINDS the character could make once now, wherever it stands: supported,
 * at its level, with the tools it carries and the inputs it carries or banked, and a station of the recipe's type placed in
 * the world (the game checks the rest, coins and a consumable, when it makes).
 */
export function makeableRecipes(content: ContentRegistry, data: PlayerData): string[] {
  // What it carries or banked: a goal of making from the bank starts with a withdrawal (agent-runtime/brain/makingBank.ts).
  const carried = (itemId: string) =>
    data.inventory.reduce((n, s) => (s !== null && s.itemId === itemId ? n + s.quantity : n), 0) +
    data.bank.reduce((n, s) => (s.itemId === itemId ? n + s.quantity : n), 0);
  return goalContent(content)
    .recipes.filter((r) => r.skill === null || data.skills[r.skill].level >= r.level)
    .filter((r) => r.tools.every((t) => hasItem(data, (id) => id === t)))
    .filter((r) =>
      r.essence !== undefined ? r.essence.types.some((e) => carried(e) > 0) : r.inputs.length > 0 && r.inputs.every((i) => carried(i.itemId) >= i.quantity),
    )
    .map((r) => r.id);
}

/** Goals a character can pursue now, from the content (its sets derived once: goalContent.ts) and what it carries. */
export function availableGoals(content: ContentRegistry, data: PlayerData): AvailableGoal[] {
  const goals: AvailableGoal[] = [];
  const { nodes, placed, mobs, logs, raw, bank, keepers, tools, forSale, runes, supplies } = goalContent(content);
  const owns = (tool: string) => hasItem(data, (id) => id === tool || id.endsWith(`_${tool.split("_").pop()}`));
  for (const [skill, label] of [
    ["woodcutting", "Chop trees"],
    ["mining", "Mine rocks"],
    ["fishing", "Catch fish"],
  ] as const) {
    const usable = nodes.filter((n) => n.gathering === skill && placed.has(n.id) && n.levelRequired <= data.skills[skill].level && owns(n.toolRequired));
    if (usable.length > 0) goals.push({ type: skill, description: label, targets: usable.map((n) => n.id) });
  }
  if (mobs.length > 0) goals.push({ type: "combat", description: "Fight monsters", targets: [...mobs] });
  if (hasItem(data, (id) => id === "tinderbox") && hasItem(data, (id) => logs.has(id))) {
    goals.push({ type: "firemaking", description: "Light fires", targets: [...logs] });
  }
  if (hasItem(data, (id) => raw.has(id))) goals.push({ type: "cooking", description: "Cook food", targets: [...raw] });
  const making = makeableRecipes(content, data);
  if (making.length > 0) goals.push({ type: "making", description: "Make things", targets: making });
  if (bank) goals.push({ type: "banking", description: "Bank items", targets: [] });
  // Tools of the gathering skills that a placed store keeper sells and the character lacks: the
  // tools of making (a hammer at the anvil, a knife for fletching, a needle) and their consumables
  // (thread), and every tier of tools.json (an iron pickaxe once it can afford one).
  const missing = [...new Set(forSale.filter((id) => tools.has(id) && !hasItem(data, (held) => held === id)))];
  // Runes sold there, for the combat spells (magic.ts): a consumable, always on offer.
  // Weapons sold there that it does not hold (a genre player buys a better sword once it has the
  // coins); not the elemental staves (a caster's, not a fighter's: fighting.ts meleeWorth).
  const weapons = goalContent(content).weapons.filter((id) => !missing.includes(id) && !hasItem(data, (held) => held === id));
  // Armour sold there that it does not hold (a helm, a shield, a platebody: a genre fighter wears
  // what its coins buy, and takes less damage; agent-runtime/brain/fighting.ts armourUpgrade).
  const armour = goalContent(content).armour.filter((id) => !hasItem(data, (held) => held === id));
  // The inputs of the making chains sold there (a cowhide to tan, leather, flax, a bar), a player's
  // way past gathering every one: bounded by what the placed stores sell that a supported recipe takes.
  // The elemental staves sold there when it holds none (a caster's: unlimited runes of its element,
  // runes.json elementalStaves; agent-runtime/brain/magicFocus.ts buys one under the magic focus).
  const holdsStaff = hasItem(data, (held) => content.magic.staves.has(held));
  const staves = holdsStaff ? [] : [...new Set(forSale.filter((id) => content.magic.staves.has(id)))];
  // Food sold there (a genre fighter buys bread for the fights ahead; agent-runtime/brain/meleeFocus.ts foodPurchase): a consumable, always on offer.
  const food = goalContent(content).food;
  if (missing.length + runes.length + weapons.length + armour.length + supplies.length + staves.length + food.length > 0) {
    const description = runes.length === 0 ? "Buy a tool" : missing.length === 0 ? "Buy runes" : "Buy a tool or runes";
    const more = [
      ...(weapons.length > 0 ? ["a weapon"] : []),
      ...(armour.length > 0 ? ["armour"] : []),
      ...(supplies.length > 0 ? ["making supplies"] : []),
      ...(staves.length > 0 ? ["a staff"] : []),
      ...(food.length > 0 ? ["food"] : []),
    ].join(" or ");
    goals.push({
      type: "shopping",
      description: more === "" ? description : `${description} or ${more}`,
      targets: [...new Set([...missing, ...runes, ...weapons, ...armour, ...supplies, ...staves, ...food])],
    });
  }
  // Placed stores that buy something it carries (a general store any tradeable item, a specialist
  // what it sells; store.ts decides the price, and refuses a sale that would pay nothing).
  const carried = new Set(data.inventory.flatMap((s) => (s !== null && s.itemId !== "coins" && content.item(s.itemId)?.tradeable === true ? [s.itemId] : [])));
  const buyers = [...content.stores.values()].filter(
    (s) => keepers.has(s.id) && s.buyback && (isGeneral(content, s) || s.items.some((i) => carried.has(i.itemId))),
  );
  if (carried.size > 0 && buyers.length > 0) goals.push({ type: "selling", description: "Sell items", targets: buyers.map((s) => s.id) });
  const quest = questGoal(content, data);
  if (quest !== undefined) goals.push(quest);
  goals.push({ type: "explore", description: "Explore the world", targets: [...goalContent(content).areas] });
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
    return this.tokens.signServiceToken(
      { accountId: row.accountId, characterId: row.characterId, agentId: row.agentId, agentTokenGeneration: row.tokenGeneration },
      AGENT_TOKEN_TTL_S,
    );
  }

  /**
   * Under the account's lock (the one logins and character creation and deletion take), so that
   * on this process two registrations cannot both pass the count, and none can add a mapping to a
   * character that a deletion has just taken its mappings from. That lock is this process's only.
   * A registration for the same character on another process of a cluster can pass the check at
   * the same time: the database's unique index on the character refuses the second (409, as the
   * check would). Across processes, two registrations at once can still each take an account's
   * last place, and a registration can still add a mapping to a character another process is
   * deleting (there is no foreign key to characters).
   */
  async register(owner: Principal, characterId: string, name: string | undefined): Promise<{ agent: IAgentMapping; token: string }> {
    return this.world.withAccount(owner.accountId, async () => {
      const character = await findCharacter(this.db, characterId);
      if (character === null) throw new NotFoundError(`no character ${characterId}`);
      if (character.accountId !== owner.accountId) throw new ForbiddenError("that character belongs to another account");
      const em = this.db.em();
      // One agent a character: two would each log the other out at every login (one session a
      // character), and neither would play. Its owner deletes it, or gives it a new token.
      const hasAgent = (agentId: string) =>
        new HttpError(
          409,
          "CHARACTER_HAS_AGENT",
          `the character ${character.name} already has an agent (${agentId}): a character has one agent; delete it first, or give it a new token`,
        );
      const existing = await em.findOne(AgentMapping, { characterId });
      if (existing !== null) throw hasAgent(existing.agentId);
      if ((await em.count(AgentMapping, { accountId: owner.accountId })) >= MAX_AGENTS_PER_ACCOUNT) {
        throw new HttpError(409, "TOO_MANY_AGENTS", `an account has at most ${MAX_AGENTS_PER_ACCOUNT} agents`);
      }
      const agent = em.create(AgentMapping, { agentId: randomUUID(), accountId: owner.accountId, characterId, name: name ?? null });
      try {
        await em.flush();
      } catch (err) {
        if (!(err instanceof UniqueConstraintViolationException)) throw err;
        // Another process registered one for this character since the check.
        const winner = await this.db.em().findOne(AgentMapping, { characterId });
        throw hasAgent(winner?.agentId ?? "registered meanwhile");
      }
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
    this.push(agent, "agent:goal", goalEvent(agent));
  }

  /**
   * Sends to the agent's character's live connection; false when it is offline. While a new
   * connection of the agent is being greeted (see greet), a goal state becomes the one the
   * greeting sends, and other events wait for the greeting's end (then go to the character's
   * connection of that moment).
   */
  push(agent: IAgentMapping, type: string, data: object): boolean {
    const holds = this.holds.get(agent.agentId);
    if (holds !== undefined) {
      if (type === "agent:goal") {
        for (const hold of holds) hold.state = data as GoalState;
      } else holds.at(-1)!.queued.push({ type, data });
      return true;
    }
    const conn = this.world.connectionOf(agent.characterId);
    if (conn === undefined) return false;
    conn.send(type, type === "agent:goal" ? this.withOptions(data as GoalState, agent.characterId) : data);
    return true;
  }

  /** A goal state with the goals the live character may choose now (none when it is not in the world). */
  private withOptions(state: GoalState, characterId: string): ServerEvent<"agent:goal"> {
    const live = this.world.world.players.get(characterId);
    return { ...state, availableGoals: live === undefined ? [] : availableGoals(this.content, live.data) };
  }

  /** `agent:getGoal` from the agent's own connection: its goal state and current options, to it alone. */
  async sendGoal(p: Principal): Promise<{ code: string; message: string } | void> {
    if (p.agentId === undefined || p.characterId === undefined) return { code: "FORBIDDEN", message: "only an agent's own connection asks for its goal state" };
    const agent = await this.db.em().findOne(AgentMapping, { agentId: p.agentId });
    if (agent === null) return { code: "NOT_FOUND", message: "this agent no longer exists" };
    this.world.connectionOf(p.characterId)?.send("agent:goal", this.withOptions(goalEvent(agent), p.characterId));
  }

  /** Agents whose new connection is being greeted, with what was pushed to them meanwhile. */
  private readonly holds = new Map<string, Hold[]>();

  /**
   * Starts the greeting of an agent's new connection (WorldService.login): holds the agent's
   * pushes, then reads its goal state. A goal change pushed during the hold replaces what was read
   * (a push carries the state after its write, at least as new as a read that began before it);
   * other pushes (owner messages) wait for `release`. So the connection gets its goal state right
   * after `welcome` and `player:sync`, nothing of the agent's before them, and the latest state.
   * undefined (nothing held): the agent was deleted, or the token replaced, since it was checked.
   */
  async greet(principal: Principal): Promise<AgentGreeting | undefined> {
    const agentId = principal.agentId;
    if (agentId === undefined) throw new Error("greet: not an agent's token");
    const hold: Hold = { state: undefined, queued: [] };
    const holds = this.holds.get(agentId) ?? [];
    holds.push(hold);
    this.holds.set(agentId, holds);
    const release = () => {
      const list = this.holds.get(agentId) ?? [];
      list.splice(list.indexOf(hold), 1);
      if (list.length === 0) this.holds.delete(agentId);
      for (const { type, data } of hold.queued) {
        const conn = principal.characterId === undefined ? undefined : this.world.connectionOf(principal.characterId);
        conn?.send(type, data);
      }
    };
    let row: IAgentMapping | null;
    try {
      row = await this.db.em().findOne(AgentMapping, { agentId });
    } catch (err) {
      release();
      throw err;
    }
    if (row === null || row.characterId !== principal.characterId || row.tokenGeneration !== (principal.agentTokenGeneration ?? 0)) {
      release();
      return undefined;
    }
    hold.state ??= goalEvent(row);
    const characterId = row.characterId;
    const withOptions = (state: GoalState) => this.withOptions(state, characterId);
    return {
      // Read when sent, after the login: the options are the live character's.
      get state() {
        return withOptions(hold.state!);
      },
      release,
    };
  }

  async setGoal(
    agent: IAgentMapping,
    input: { type: string; target?: string | undefined; description?: string | undefined; lockedBy: Goal["lockedBy"] },
  ): Promise<void> {
    if (input.lockedBy === "autonomous" && agent.goalsPaused) {
      throw new HttpError(409, "GOALS_PAUSED", "goals are paused: automatic goal setting is blocked until resumed");
    }
    const options = availableGoals(this.content, await this.characterData(agent.characterId));
    const option = options.find((g) => g.type === input.type);
    if (option === undefined)
      throw new HttpError(422, "GOAL_UNAVAILABLE", `goal "${input.type}" is not available now (available: ${options.map((g) => g.type).join(", ")})`);
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
    const delivered = this.push(agent, "agent:message", {
      id,
      agentId: agent.agentId,
      from: from.agentId === agent.agentId ? "agent" : "owner",
      message,
      timestamp: Date.now(),
    });
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

  /** `agent:setGoal` from the agent's own connection: an autonomous goal, refused as the REST route refuses it. */
  async setOwnGoal(
    p: Principal,
    data: { type: string; target?: string | undefined; description?: string | undefined },
  ): Promise<{ code: string; message: string } | void> {
    if (p.agentId === undefined) return { code: "FORBIDDEN", message: "only an agent's own connection sets its goals" };
    const agent = await this.db.em().findOne(AgentMapping, { agentId: p.agentId });
    if (agent === null) return { code: "NOT_FOUND", message: "this agent no longer exists" };
    try {
      await this.setGoal(agent, { ...data, lockedBy: "autonomous" });
    } catch (err) {
      if (err instanceof HttpError) return { code: err.code, message: err.message };
      throw err;
    }
  }

  /**
   * The quick-action menu. `nearby` lists the live world's NPCs (alive), resource nodes (depleted
   * ones too, marked), stations and places (doors, ladders and stairs, agility obstacles) within the view radius of the character, nearest first: `id` is
   * the instance, as in `world:update` and the Colyseus state and as `player:action` takes it as
   * `targetId`; `ref` the content id; `type` what it is (a service NPC's service or a mob's
   * category, a node's type such as `tree`, a station's type, a place's `door`, `ladder`,
   * `stairs` or `obstacle`).
   */
  async quickActions(agent: IAgentMapping): Promise<object> {
    const data = await this.characterData(agent.characterId);
    const here = { x: data.x, z: data.z };
    const world = this.world.world;
    const nearby: NearbyEntry[] = [];
    world.forEachEntityNear(here, agent.characterId, VIEW_RADIUS, (e) => {
      if ("deadUntil" in e) nearby.push({ kind: "npc", id: e.id, ref: e.def.id, type: e.service?.type ?? e.def.category, x: e.x, z: e.z });
      else if ("node" in e) nearby.push({ kind: "resource", id: e.id, ref: e.node.id, type: e.node.type, x: e.x, z: e.z, depleted: e.depletedUntil !== 0 });
      else if ("placeKind" in e) nearby.push({ kind: "place", id: e.id, ref: e.id, type: e.placeKind === "ladder" ? e.def.kind : e.placeKind, x: e.x, z: e.z });
    });
    for (const s of world.stations)
      if (chebyshev(s, here) <= VIEW_RADIUS) nearby.push({ kind: "station", id: s.id, ref: s.type, type: s.type, x: s.x, z: s.z });
    nearby.sort((a, b) => chebyshev(a, here) - chebyshev(b, here) || (a.id < b.id ? -1 : 1));
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
    // The owner's characters: a runtime obeys chat commands from these alone (agent-runtime/owners.ts).
    const owners = await this.db.em().find(Character, { accountId: agent.accountId }, { fields: ["id"], orderBy: { id: "asc" } });
    return {
      success: true,
      agentId: agent.agentId,
      accountId: agent.accountId,
      characterId: agent.characterId,
      characterName: character?.name ?? null,
      name: agent.name ?? null,
      ownerCharacterIds: owners.map((c) => c.id),
      createdAt: agent.createdAt,
    };
  }
}
