/** Process entry of the access-point connector (issue #23). */
import { runAsProcess } from '@bm/service-kit';
import { loadConfig } from './config.js';
import { startAccessPoint } from './service.js';

await runAsProcess(() => startAccessPoint(loadConfig()));
