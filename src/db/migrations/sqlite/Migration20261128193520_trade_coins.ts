import { Migration } from '@mikro-orm/migrations';

/** Coins in trades: the audit row of a trade says how many coins each side gave, beside its items. */
export class Migration20261128193520_trade_coins extends Migration {

  override name = 'Migration20261128193520_trade_coins';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`trade_audit\` add column \`coinsAToB\` bigint not null default '0';`);
    this.addSql(`alter table \`trade_audit\` add column \`coinsBToA\` bigint not null default '0';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`trade_audit\` drop column \`coinsAToB\`;`);
    this.addSql(`alter table \`trade_audit\` drop column \`coinsBToA\`;`);
  }

}
