import { Migration } from '@mikro-orm/migrations';

/** Identity: companies, users, API clients, memberships. */
export class Migration20261122000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "identity"."api_client" ("id" uuid not null, "client_id" varchar(100) not null, "secret_hash" varchar(255) not null, "company_id" uuid not null, primary key ("id"));
alter table "identity"."api_client" add constraint "api_client_client_id_unique" unique ("client_id");
create table "identity"."company" ("id" uuid not null, "name" varchar(255) not null, "country" varchar(2) not null, "vat_number" varchar(20) null, "company_number" varchar(30) null, "address" text null, "oss_registered" boolean not null, "currency" varchar(3) not null, "time_zone" varchar(50) not null, "iban" varchar(34) null, "created_at" timestamptz not null, primary key ("id"));
create table "identity"."membership" ("user_id" uuid not null, "company_id" uuid not null, primary key ("user_id", "company_id"));
create table "identity"."user" ("id" uuid not null, "username" varchar(100) not null, "password_hash" varchar(255) not null, primary key ("id"));
alter table "identity"."user" add constraint "user_username_unique" unique ("username");
`);
  }
}
