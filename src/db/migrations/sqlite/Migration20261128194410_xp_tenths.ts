import { Migration } from '@mikro-orm/migrations';

// The skills as they were when xp moved to tenths (frozen here: a later skill has its own migration).
const SKILLS = ['attack', 'strength', 'defense', 'constitution', 'ranged', 'magic', 'prayer', 'woodcutting', 'mining', 'fishing', 'firemaking', 'cooking', 'smithing', 'crafting', 'fletching', 'runecrafting', 'agility'];
const MAX_TENTHS = 2000000000;
// A new character's xp: 1,154 constitution xp (level 10), nothing elsewhere.
const defaultXp = (s: string) => (s === 'constitution' ? 1154 : 0);

export class Migration20261128194410_xp_tenths extends Migration {

  override name = 'Migration20261128194410_xp_tenths';

  override up(): void | Promise<void> {
    // Xp is kept in tenths (17.5 xp is 175), as the genre keeps it: each `<skill>Xp` becomes
    // `<skill>XpTenths` = xp × 10, exactly (no rounding: xp was whole). Added, filled and the old
    // column dropped, rather than the table rebuilt: a rebuild would copy only the columns this
    // migration knows of.
    for (const s of SKILLS) {
      const c = `${s}XpTenths`;
      this.addSql(`alter table \`characters\` add column \`${c}\` integer check ("${c}" >= 0 and "${c}" <= ${MAX_TENTHS}) not null default ${defaultXp(s) * 10};`);
    }
    this.addSql(`update \`characters\` set ${SKILLS.map((s) => `\`${s}XpTenths\` = \`${s}Xp\` * 10`).join(', ')};`);
    for (const s of SKILLS) this.addSql(`alter table \`characters\` drop column \`${s}Xp\`;`);
  }

  override down(): void | Promise<void> {
    // Back to whole xp: the fraction of a tenth-counted xp is dropped (rounded down).
    for (const s of SKILLS) {
      const c = `${s}Xp`;
      this.addSql(`alter table \`characters\` add column \`${c}\` integer check ("${c}" >= 0 and "${c}" <= 200000000) not null default ${defaultXp(s)};`);
    }
    this.addSql(`update \`characters\` set ${SKILLS.map((s) => `\`${s}Xp\` = \`${s}XpTenths\` / 10`).join(', ')};`);
    for (const s of SKILLS) this.addSql(`alter table \`characters\` drop column \`${s}XpTenths\`;`);
  }

}
