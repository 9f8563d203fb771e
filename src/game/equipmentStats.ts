/**
 * The worn items' bonuses summed as the genre's "Equipment Stats" screen lists them (OSRS wiki
 * "Equipment Stats", https://oldschool.runescape.wiki/w/Equipment_Stats): attack and defence bonuses
 * by type (stab, slash, crush, magic, ranged), then melee strength, ranged strength and prayer.
 * The same sums combat uses (combat.ts `playerBonuses`: a generic `attack` or `defense` counts
 * for each melee type, `ranged` with `attackRanged`; prayer.ts `prayerBonus`), for the client's
 * Equipment tab. Pure: the items' definitions in, numbers out.
 */
import type { ItemDef } from "../manifests/schemas/items.ts";

export const STAT_TYPES = ["stab", "slash", "crush", "magic", "ranged"] as const;
export type StatType = (typeof STAT_TYPES)[number];

export interface EquipmentStats {
  attack: Record<StatType, number>;
  defence: Record<StatType, number>;
  meleeStrength: number;
  rangedStrength: number;
  prayer: number;
}

const zero = (): Record<StatType, number> => ({ stab: 0, slash: 0, crush: 0, magic: 0, ranged: 0 });
const key = (prefix: string, t: StatType) => `${prefix}${t[0]!.toUpperCase()}${t.slice(1)}`;

export function equipmentStats(worn: readonly (ItemDef | undefined)[]): EquipmentStats {
  const s: EquipmentStats = { attack: zero(), defence: zero(), meleeStrength: 0, rangedStrength: 0, prayer: 0 };
  for (const item of worn) {
    const b = item?.bonuses ?? {};
    for (const t of STAT_TYPES) {
      const melee = t !== "magic" && t !== "ranged";
      s.attack[t] += (b[key("attack", t)] ?? 0) + (melee ? (b.attack ?? 0) : t === "ranged" ? (b.ranged ?? 0) : 0);
      s.defence[t] += (b[key("defense", t)] ?? 0) + (melee ? (b.defense ?? 0) : 0);
    }
    s.meleeStrength += b.strength ?? 0;
    s.rangedStrength += b.rangedStrength ?? 0;
    s.prayer += b.prayer ?? 0;
  }
  return s;
}
