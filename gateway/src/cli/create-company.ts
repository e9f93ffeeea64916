/**
 * CLI twin of `POST /admin/companies` (DESIGN §3): creates a company with its default master data and
 * prints its credentials (once) as JSON. Needs the services running on NATS_URL and the identity
 * database at DATABASE_URL.
 *
 *   pnpm create-company --name "Firma s.r.o." --country SK [--vat-number SK2020000000] [--company-number 12345678]
 *     [--address "..."] [--oss] [--currency EUR] [--time-zone Europe/Bratislava] [--iban SK...] [--username name]
 */
import { parseArgs } from 'node:util';
import { isAppError } from '@bm/errors';
import { connect } from '@bm/messaging';
import { initOrm, natsOptions } from '@bm/service-kit';
import { loadConfig } from '../config.js';
import { IdentityService } from '../identity/identity.service.js';
import { ormOptions } from '../identity/orm-options.js';

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    country: { type: 'string' },
    'vat-number': { type: 'string' },
    'company-number': { type: 'string' },
    address: { type: 'string' },
    oss: { type: 'boolean', default: false },
    currency: { type: 'string' },
    'time-zone': { type: 'string' },
    iban: { type: 'string' },
    username: { type: 'string' },
  },
});

const config = loadConfig();
const orm = await initOrm({ ...ormOptions, clientUrl: config.DATABASE_URL });
const nc = await connect({ ...natsOptions(config, 'create-company'), maxReconnectAttempts: 0 });
try {
  const creds = await new IdentityService(orm, nc).createCompany(
    {
      name: values.name,
      country: values.country,
      vatNumber: values['vat-number'],
      companyNumber: values['company-number'],
      address: values.address,
      ossRegistered: values.oss,
      currency: values.currency,
      timeZone: values['time-zone'],
      iban: values.iban,
      username: values.username,
    },
    crypto.randomUUID(),
  );
  console.log(JSON.stringify(creds, null, 2));
} catch (e) {
  console.error(isAppError(e) ? `${e.code}: ${e.message}` : e);
  process.exitCode = 1;
} finally {
  await nc.close();
  await orm.close();
}
