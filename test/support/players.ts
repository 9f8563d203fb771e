/** Player data for game tests. */
import { SKILLS, type Skill } from "../../src/game/skills.ts";
import { INVENTORY_SIZE, type PlayerData, type SkillState } from "../../src/game/world/Player.ts";

let n = 0;

export function playerData(over: Partial<PlayerData> = {}): PlayerData {
  n++;
  const skills = Object.fromEntries(SKILLS.map((s) => [s, s === "constitution" ? { level: 10, xpTenths: 11540 } : { level: 1, xpTenths: 0 }])) as Record<
    Skill,
    SkillState
  >;
  return {
    characterId: `char-${n}`,
    accountId: `acc-${n}`,
    name: `Tester${n}`,
    x: 0,
    y: 10,
    z: 0,
    health: 100,
    coins: 0,
    combatLevel: 3,
    skills,
    inventory: Array.from({ length: INVENTORY_SIZE }, () => null),
    equipment: {},
    bank: [],
    ...over,
  };
}
