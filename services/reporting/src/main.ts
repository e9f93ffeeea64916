/** Process entry of the reporting service. */
import { runAsProcess } from '@bm/service-kit';
import { loadConfig } from './config.js';
import { startReporting } from './service.js';

await runAsProcess(() => startReporting(loadConfig()));
