/** ORM options of the invoicing service: its schema, entities and ordered migrations. */
import { entities, SCHEMA } from './entities.js';
import { Migration20261122000000 } from './migrations/Migration20261122000000.js';
import { Migration20261122000100 } from './migrations/Migration20261122000100.js';
import { Migration20261123000000 } from './migrations/Migration20261123000000.js';
import { Migration20261123200000 } from './migrations/Migration20261123200000.js';
import { Migration20261123400000 } from './migrations/Migration20261123400000.js';
import { Migration20261124000000 } from './migrations/Migration20261124000000.js';
import { Migration20261125000000 } from './migrations/Migration20261125000000.js';
import { Migration20261126000000 } from './migrations/Migration20261126000000.js';
import { Migration20261127000000 } from './migrations/Migration20261127000000.js';
import { Migration20261128000000 } from './migrations/Migration20261128000000.js';
import { Migration20261129000000 } from './migrations/Migration20261129000000.js';
import { Migration20261130000000 } from './migrations/Migration20261130000000.js';
import { Migration20261202000000 } from './migrations/Migration20261202000000.js';
import { Migration20261203000000 } from './migrations/Migration20261203000000.js';
import { Migration20261203000100 } from './migrations/Migration20261203000100.js';
import { Migration20261204000000 } from './migrations/Migration20261204000000.js';

export const ormOptions = {
  schema: SCHEMA,
  entities,
  migrations: [
    { name: 'Migration20261122000000', class: Migration20261122000000 },
    { name: 'Migration20261122000100', class: Migration20261122000100 },
    { name: 'Migration20261123000000', class: Migration20261123000000 },
    { name: 'Migration20261123200000', class: Migration20261123200000 },
    { name: 'Migration20261123400000', class: Migration20261123400000 },
    { name: 'Migration20261124000000', class: Migration20261124000000 },
    { name: 'Migration20261125000000', class: Migration20261125000000 },
    { name: 'Migration20261126000000', class: Migration20261126000000 },
    { name: 'Migration20261127000000', class: Migration20261127000000 },
    { name: 'Migration20261128000000', class: Migration20261128000000 },
    { name: 'Migration20261129000000', class: Migration20261129000000 },
    { name: 'Migration20261130000000', class: Migration20261130000000 },
    { name: 'Migration20261202000000', class: Migration20261202000000 },
    { name: 'Migration20261203000000', class: Migration20261203000000 },
    { name: 'Migration20261203000100', class: Migration20261203000100 },
    { name: 'Migration20261204000000', class: Migration20261204000000 },
  ],
};
