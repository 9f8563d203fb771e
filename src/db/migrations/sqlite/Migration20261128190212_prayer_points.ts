import { Migration } from '@mikro-orm/migrations';

export class Migration20261128190212_prayer_points extends Migration {

  override name = 'Migration20261128190212_prayer_points';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`characters\` add column \`prayerPoints\` integer not null default 1;`);
    // Every character had full prayer points until now: as many as its Prayer level.
    this.addSql(`update \`characters\` set \`prayerPoints\` = \`prayerLevel\`;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`characters\` drop column \`prayerPoints\`;`);
  }

}
