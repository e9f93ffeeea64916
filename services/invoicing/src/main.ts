/** Process entry of the invoicing service. */
import { runAsProcess } from '@bm/service-kit';
import { loadConfig } from './config.js';
import { startInvoicing } from './service.js';

await runAsProcess(() => startInvoicing(loadConfig()));
