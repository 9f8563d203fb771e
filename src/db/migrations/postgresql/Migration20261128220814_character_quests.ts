import { Migration } from '@mikro-orm/migrations';

/**
 * Quests (entities/CharacterQuest.ts): a character's state in each quest it started, one row a
 * quest, unique by character and quest, written with the character's save.
 */
export class Migration20261128220814_character_quests extends Migration {

  override name = 'Migration20261128220814_character_quests';

  override up(): void | Promise<void> {
    this.addSql(`create table "character_quests" ("id" serial primary key, "characterId" varchar(64) not null, "questId" varchar(64) not null, "status" varchar(16) not null, "stage" int not null, "progress" int not null default 0, "completions" int not null default 0);`);
    this.addSql(`alter table "character_quests" add constraint "character_quests_character_quest_unique" unique ("characterId", "questId");`);

    this.addSql(`alter table "character_quests" add constraint "character_quests_status_check" check (status = 'in_progress' or status = 'completed');`);
    this.addSql(`alter table "character_quests" add constraint "character_quests_stage_check" check (stage >= 0);`);
    this.addSql(`alter table "character_quests" add constraint "character_quests_progress_check" check (progress >= 0);`);
    this.addSql(`alter table "character_quests" add constraint "character_quests_completions_check" check (completions >= 0);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "character_quests" cascade;`);
  }

}
