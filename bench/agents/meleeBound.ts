/**
 * How long melee combat 10 (Attack, Strength and Defence each 10) takes at best under the server's
 * formulas, fighting without a pause: the bound the ladder's melee milestone is measured against
 * (bench/agents/README.md). Each attack is rolled as src/game/combat.ts rolls it (hit chance, a
 * uniform 0..max hit, the style's invisible levels, 4 xp a hitpoint to the style's skill), the
 * style trains the skill `--order` says (the lowest of the three by default; the agents'
 * leapfrog:strength,attack,defense since agent-runtime/brain/fighting.ts trainingStyle), a monster's hits give
 * no xp (as in OSRS, and src/game/combat.ts since a5fa7d3; they gave Defence 1 xp a hitpoint before); between kills `--gap` ticks (a respawn found at once); no walking, looting
 * or eating; a weapon's Attack requirement is not checked. Usage: npm run bench:melee-bound -- [--mob brindle_cow]
 * [--weapon bronze_sword] [--runs 50] [--gap 10] [--order leapfrog:strength,attack,defense]
 */
import { parseArgs } from "node:util";
import { hitChance, maxHitHitpoints, NPC_STYLE_BONUS, UNARMED_SPEED_TICKS } from "../../src/game/combat.ts";
import { levelForXp } from "../../src/game/skills.ts";
import { bundledContent } from "../../test/support/content.ts";
import { Random } from "../../agent-runtime/brain/random.ts";

const USAGE = `Usage: npm run bench:melee-bound -- [--mob ID] [--weapon ID] [--runs N] [--gap TICKS] [--order ORDER]

Plays the climb to Attack, Strength and Defence 10 with the server's own combat formulas (no
walking, looting or eating): the lower bound of the agents' melee ladder, in ticks.
  --mob ID       the monster fought (default brindle_cow)
  --weapon ID    the weapon wielded (default: unarmed)
  --runs N       climbs averaged (default 50)
  --gap TICKS    ticks between kills (default 10)
  --armour IDS   armour worn, comma-separated (bronze_full_helm,bronze_kiteshield): its defence
                 bonus as src/game/combat.ts playerBonuses counts it (the mean of stab, slash, crush)
  --order ORDER  which skill the style trains: lowest (the lowest of the three, the default), or
                 a comma-separated order such as strength,attack,defense (each to 10 in turn), or
                 leapfrog:strength,attack,defense (the first below the second + 5, then the
                 second, …: a genre player's Strength ahead of Attack ahead of Defence)
`;
let parsed;
try {
  parsed = parseArgs({
    options: {
      mob: { type: "string", default: "brindle_cow" },
      weapon: { type: "string" },
      runs: { type: "string", default: "50" },
      gap: { type: "string", default: "10" },
      order: { type: "string", default: "lowest" },
      armour: { type: "string", default: "" },
      help: { type: "boolean", default: false },
    },
  });
} catch (err) {
  process.stderr.write(`bench:melee-bound: ${(err as Error).message} (see --help)\n`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const content = await bundledContent();
const mob = content.npcs.get(values.mob)!;
const weapon = values.weapon === undefined ? undefined : content.item(values.weapon);
const attackBonus = weapon?.bonuses?.attack ?? 0;
const strengthBonus = weapon?.bonuses?.strength ?? 0;
const armour = values.armour === "" ? [] : values.armour.split(",").map((id) => content.item(id)!);
const defenceBonus = armour.reduce((n, a) => {
  const b = a.bonuses ?? {};
  return n + (b.defense ?? 0) + Math.round(((b.defenseStab ?? 0) + (b.defenseSlash ?? 0) + (b.defenseCrush ?? 0)) / 3);
}, 0);
const speed = weapon?.attackSpeed ?? UNARMED_SPEED_TICKS;
const stats = mob.stats!;
const rng = new Random("melee-bound");

const SKILLS = ["attack", "strength", "defense"];
const order = values.order.replace(/^leapfrog:/, "").split(",");
if (values.order !== "lowest" && (order.length !== 3 || !SKILLS.every((s) => order.includes(s)))) {
  process.stderr.write(`bench:melee-bound: --order names attack, strength and defense once each (see --help)\n`);
  process.exit(2);
}
/** The skill the style trains now, by --order. */
function pick(level: (s: string) => number): string {
  if (values.order === "lowest") return [...SKILLS].sort((a, b) => level(a) - level(b))[0]!;
  if (values.order.startsWith("leapfrog:")) {
    // Each skill runs 5 levels ahead of the next, capped at 10: the first that is behind its lead.
    for (let i = 0; i < 3; i++) {
      const cap = Math.min(10, i === 2 ? 10 : level(order[i + 1]!) + 5);
      if (level(order[i]!) < cap) return order[i]!;
    }
    return order.find((s) => level(s) < 10) ?? order[0]!;
  }
  return order.find((s) => level(s) < 10) ?? order[0]!;
}

function climb(): { ticks: number; taken: number } {
  const xp: Record<string, number> = { attack: 0, strength: 0, defense: 0 };
  const level = (s: string) => levelForXp(Math.floor(xp[s]!));
  let health = stats.health * 10;
  let ticks = 0;
  let taken = 0;
  let theirs = 0;
  while (["attack", "strength", "defense"].some((s) => level(s) < 10) && ticks < 100_000) {
    const style = pick(level);
    const plus = (s: string) => (s === style ? 3 : 0);
    const attackRoll = (level("attack") + plus("attack") + 8) * (attackBonus + 64);
    const defenceRoll = (stats.defense + NPC_STYLE_BONUS + 8) * ((stats.defenseBonus ?? 0) + 64);
    const max = maxHitHitpoints(level("strength"), strengthBonus, plus("strength"));
    const damage = rng.next() < hitChance(attackRoll, defenceRoll) ? Math.min(health, Math.floor(rng.next() * (max * 10 + 1))) : 0;
    health -= damage;
    xp[style]! += (damage / 10) * 4;
    ticks += speed;
    // The monster's blows over those ticks (every attackSpeedTicks).
    for (theirs += speed; theirs >= (mob.combat?.attackSpeedTicks ?? 4); theirs -= mob.combat?.attackSpeedTicks ?? 4) {
      const hit =
        rng.next() < hitChance((stats.attack + NPC_STYLE_BONUS + 8) * 64, (level("defense") + plus("defense") + 8) * (defenceBonus + 64))
          ? Math.floor(rng.next() * (maxHitHitpoints(stats.strength, 0, NPC_STYLE_BONUS) * 10 + 1))
          : 0;
      taken += hit;
    }
    if (health <= 0) {
      health = stats.health * 10;
      ticks += Number(values.gap);
    }
  }
  return { ticks, taken };
}

const runs = Number(values.runs);
let ticks = 0;
let taken = 0;
for (let i = 0; i < runs; i++) {
  const r = climb();
  ticks += r.ticks;
  taken += r.taken;
}
process.stdout.write(
  `${mob.name}, ${weapon?.name ?? "unarmed"}${armour.length > 0 ? `, ${armour.map((a) => a.name).join(", ")} (defence +${defenceBonus})` : ""}: ${Math.round(ticks / runs)} ticks of fighting (${Math.round(ticks / runs / 100)} min at 600 ms), ${Math.round(taken / runs)} lifepoints taken (mean of ${runs})\n`,
);
