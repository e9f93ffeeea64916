import { Migration } from '@mikro-orm/migrations';

/**
 * Authentication failure counts shared by every gateway replica (issue #22): rate-limiter-flexible's
 * PostgreSQL store layout (`key` a hash of the counter and its subject, `points` the count, `expire` in
 * epoch ms). Expired rows are deleted hourly by the limiter.
 */
export class Migration20261125000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "identity"."auth_failure" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);
create index "auth_failure_expire_index" on "identity"."auth_failure" ("expire");
`);
  }
}
