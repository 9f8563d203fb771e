import { Migration } from '@mikro-orm/migrations';

// The skills as they were when xp moved to tenths (frozen here: a later skill has its own migration).
const SKILLS = ['attack', 'strength', 'defense', 'constitution', 'ranged', 'magic', 'prayer', 'woodcutting', 'mining', 'fishing', 'firemaking', 'cooking', 'smithing', 'crafting', 'fletching', 'runecrafting', 'agility'];
const MAX_TENTHS = 2000000000;
// A new character's xp: 1,154 constitution xp (level 10), nothing elsewhere.
const defaultXp = (s: string) => (s === 'constitution' ? 1154 : 0);

export class Migration20261128194411_xp_tenths extends Migration {

  override name = 'Migration20261128194411_xp_tenths';

  override up(): void | Promise<void> {
    // Xp is kept in tenths (17.5 xp is 175), as the genre keeps it: each `<skill>Xp` becomes
    // `<skill>XpTenths` = xp × 10, exactly (no rounding: xp was whole; 200,000,000 × 10 fits an int).
    this.addSql(`alter table "characters" ${SKILLS.map((s) => `add "${s}XpTenths" int not null default ${defaultXp(s) * 10}`).join(', ')};`);
    this.addSql(`update "characters" set ${SKILLS.map((s) => `"${s}XpTenths" = "${s}Xp" * 10`).join(', ')};`);
    for (const s of SKILLS) this.addSql(`alter table "characters" drop constraint "characters_${s}Xp_check";`);
    this.addSql(`alter table "characters" ${SKILLS.map((s) => `drop column "${s}Xp"`).join(', ')};`);
    for (const s of SKILLS) this.addSql(`alter table "characters" add constraint "characters_${s}XpTenths_check" check ("${s}XpTenths" >= 0 and "${s}XpTenths" <= ${MAX_TENTHS});`);
  }

  override down(): void | Promise<void> {
    // Back to whole xp: the fraction of a tenth-counted xp is dropped (integer division rounds down).
    this.addSql(`alter table "characters" ${SKILLS.map((s) => `add "${s}Xp" int not null default ${defaultXp(s)}`).join(', ')};`);
    this.addSql(`update "characters" set ${SKILLS.map((s) => `"${s}Xp" = "${s}XpTenths" / 10`).join(', ')};`);
    for (const s of SKILLS) this.addSql(`alter table "characters" drop constraint "characters_${s}XpTenths_check";`);
    this.addSql(`alter table "characters" ${SKILLS.map((s) => `drop column "${s}XpTenths"`).join(', ')};`);
    for (const s of SKILLS) this.addSql(`alter table "characters" add constraint "characters_${s}Xp_check" check ("${s}Xp" >= 0 and "${s}Xp" <= 200000000);`);
  }

}
