/** Process entry of the warehouse service. */
import { runAsProcess } from '@bm/service-kit';
import { loadConfig } from './config.js';
import { startWarehouse } from './service.js';

await runAsProcess(() => startWarehouse(loadConfig()));
