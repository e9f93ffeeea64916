/** ORM options of the gateway's identity schema. */
import { entities, SCHEMA } from './entities.js';
import { Migration20261122000000 } from './migrations/Migration20261122000000.js';
import { Migration20261123000000 } from './migrations/Migration20261123000000.js';
import { Migration20261125000000 } from './migrations/Migration20261125000000.js';

export const ormOptions = {
  schema: SCHEMA,
  entities,
  migrations: [
    { name: 'Migration20261122000000', class: Migration20261122000000 },
    { name: 'Migration20261123000000', class: Migration20261123000000 },
    { name: 'Migration20261125000000', class: Migration20261125000000 },
  ],
};
