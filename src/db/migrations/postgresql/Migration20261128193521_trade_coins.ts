import { Migration } from '@mikro-orm/migrations';

/** Coins in trades: the audit row of a trade says how many coins each side gave, beside its items. */
export class Migration20261128193521_trade_coins extends Migration {

  override name = 'Migration20261128193521_trade_coins';

  override up(): void | Promise<void> {
    this.addSql(`alter table "trade_audit" add "coinsAToB" bigint not null default '0', add "coinsBToA" bigint not null default '0';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "trade_audit" drop column "coinsAToB", drop column "coinsBToA";`);
  }

}
