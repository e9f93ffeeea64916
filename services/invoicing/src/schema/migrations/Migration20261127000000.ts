import { Migration } from '@mikro-orm/migrations';

/**
 * Traces across events (issue #25): the W3C `traceparent` of the request that wrote an outbox event, so
 * the relay passes it on in the event's headers and the consumer's span joins the same trace.
 */
export class Migration20261127000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "invoicing"."outbox" add column "trace_parent" varchar(55) null;`);
  }
}
