import { Migration } from '@mikro-orm/migrations';

/**
 * Quests (entities/CharacterQuest.ts): a character's state in each quest it started, one row a
 * quest, unique by character and quest, written with the character's save.
 */
export class Migration20261128220812_character_quests extends Migration {

  override name = 'Migration20261128220812_character_quests';

  override up(): void | Promise<void> {
    this.addSql(`create table \`character_quests\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`questId\` text not null, \`status\` text check (status = 'in_progress' or status = 'completed') not null, \`stage\` integer check (stage >= 0) not null, \`progress\` integer check (progress >= 0) not null default 0, \`completions\` integer check (completions >= 0) not null default 0);`);
    this.addSql(`create unique index \`character_quests_character_quest_unique\` on \`character_quests\` (\`characterId\`, \`questId\`);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`character_quests\`;`);
  }

}
