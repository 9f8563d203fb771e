/**
 * A player's data as it leaves the world: the deep copy the saver gets (copyData, snapshot) and
 * the private state the owner is sent (`player:sync`). Every field a player's data gains is
 * copied and published here.
 */
import { DEFAULT_COMBAT_STYLE } from "../combatStyles.ts";
import type { ServerEvent } from "../serverEvents.ts";
import { SKILLS, wholeXp } from "../skills.ts";
import type { Player, PlayerData } from "./Player.ts";
import { prayerPoints } from "./prayerPoints.ts";
import { runEnergyOf, shownRunEnergy } from "./runEnergy.ts";

/** A deep copy of player data, field by field (several times faster than structuredClone). */
export function copyData(d: PlayerData): PlayerData {
  const skills = {} as PlayerData["skills"];
  for (const s of SKILLS) skills[s] = { level: d.skills[s].level, xpTenths: d.skills[s].xpTenths };
  const equipment: PlayerData["equipment"] = {};
  for (const k in d.equipment) equipment[k] = { itemId: d.equipment[k]!.itemId, quantity: d.equipment[k]!.quantity };
  return {
    characterId: d.characterId,
    accountId: d.accountId,
    name: d.name,
    x: d.x,
    y: d.y,
    z: d.z,
    health: d.health,
    coins: d.coins,
    combatLevel: d.combatLevel,
    ...(d.combatStyle !== undefined ? { combatStyle: d.combatStyle } : {}),
    ...(d.autocast !== undefined ? { autocast: d.autocast } : {}),
    ...(d.runEnergy !== undefined ? { runEnergy: d.runEnergy } : {}),
    ...(d.runMode !== undefined ? { runMode: d.runMode } : {}),
    ...(d.autoRetaliate !== undefined ? { autoRetaliate: d.autoRetaliate } : {}),
    ...(d.prayerPoints !== undefined ? { prayerPoints: d.prayerPoints } : {}),
    skills,
    inventory: d.inventory.map((s) => (s === null ? null : { itemId: s.itemId, quantity: s.quantity })),
    equipment,
    bank: d.bank.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
    ...(d.quests !== undefined ? { quests: copyQuests(d.quests) } : {}),
    ...(d.consumableUses !== undefined ? { consumableUses: { ...d.consumableUses } } : {}),
  };
}

function copyQuests(q: NonNullable<PlayerData["quests"]>): NonNullable<PlayerData["quests"]> {
  const out: NonNullable<PlayerData["quests"]> = {};
  for (const id in q) out[id] = { ...q[id]! };
  return out;
}

/**
 * A deep copy of the persistent data (the saver must not see later mutations), carrying the
 * kills, deaths and ground-item changes recorded since the last snapshot, which it hands over.
 */
export function snapshot(player: Player): PlayerData {
  const data = copyData(player.data);
  if (player.pendingKills.size > 0) data.kills = Object.fromEntries(player.pendingKills);
  if (player.pendingDeaths.length > 0) data.deaths = player.pendingDeaths;
  if (player.pendingGround.length > 0) data.ground = player.pendingGround;
  player.pendingKills = new Map();
  player.pendingDeaths = [];
  player.pendingGround = [];
  return data;
}

/** PROTOCOL.md `player:sync`: the full private state of a player. */
export function playerSync(player: Player): ServerEvent<"player:sync"> {
  const d = player.data;
  const skills: Record<string, { level: number; xp: number }> = {};
  for (const s of SKILLS) skills[s] = { level: d.skills[s].level, xp: wholeXp(d.skills[s].xpTenths) };
  return {
    id: player.id,
    name: d.name,
    position: { x: d.x, y: d.y, z: d.z },
    health: d.health,
    maxHealth: player.maxHealth,
    combatLevel: d.combatLevel,
    coins: d.coins,
    combatStyle: d.combatStyle ?? DEFAULT_COMBAT_STYLE,
    autocast: d.autocast ?? null,
    runEnergy: shownRunEnergy(runEnergyOf(player)),
    runMode: player.runMode,
    autoRetaliate: player.autoRetaliate,
    prayerPoints: prayerPoints(player),
    activePrayers: [...player.activePrayers],
    skills,
    inventory: d.inventory.flatMap((s, slot) => (s === null ? [] : [{ slot, itemId: s.itemId, quantity: s.quantity }])),
    equipment: Object.fromEntries(Object.entries(d.equipment).map(([slot, s]) => [slot, { itemId: s.itemId, quantity: s.quantity }])),
    bank: d.bank.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
    inTrade: player.inTrade,
  };
}
