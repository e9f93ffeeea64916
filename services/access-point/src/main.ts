/** Process entry of the access-point connector (issue #23). */
import { loadConfig } from './config.js';
import { startAccessPoint } from './service.js';

const running = await startAccessPoint(loadConfig()).catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
const stop = () =>
  running.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
