import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox relay claims the events it publishes (issue #24: one statement per round instead of a
 * transaction of four): `claimed_until` is when another relay may take an unpublished event over.
 */
export class Migration20261128000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "invoicing"."outbox" add column "claimed_until" timestamptz null;`);
  }
}
