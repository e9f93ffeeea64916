/**
 * What `pnpm start` prints once the stack is up (issue #3): where it listens, the demo company's
 * credentials with a ready-to-paste curl, the admin call and the CLI line.
 */

export interface Banner {
  seconds: number;
  baseUrl: string;
  host: string;
  port: number;
  creds: { companyId: string; username: string; password: string; clientId: string; clientSecret: string };
  credsFile: string;
  adminToken: string;
  adminTokenGenerated: boolean;
  /** The `pnpm create-company` command line with its environment. */
  cli: string;
}

/** Prints the banner line by line through `say`. */
export function printBanner(b: Banner, say: (line: string) => void): void {
  const { creds, baseUrl } = b;
  say('');
  say(`Stack is up in ${b.seconds.toFixed(1)} s: ${baseUrl}  (OpenAPI: ${baseUrl}/1.6/openapi.json)`);
  say(
    `The gateway listens on ${b.host}:${b.port}${b.host === '127.0.0.1' ? ' (this machine only; set HOST=0.0.0.0 to listen on every interface)' : ''}.`,
  );
  say(`Demo company ${creds.companyId}`);
  say(`  username      ${creds.username}`);
  say(`  password      ${creds.password}`);
  say(`  ClientID      ${creds.clientId}`);
  say(`  ClientSecret  ${creds.clientSecret}`);
  say(`  (also in ${b.credsFile}, mode 0600)`);
  say('');
  say('Try:');
  say(
    `  curl -s -u '${creds.username}:${creds.password}' -H 'ClientID: ${creds.clientId}' -H 'ClientSecret: ${creds.clientSecret}' -H 'CompanyID: ${creds.companyId}' ${baseUrl}/1.6/warehouses`,
  );
  say('');
  say(
    `Admin: POST ${baseUrl}/admin/companies with 'Authorization: Bearer ${b.adminToken}'${b.adminTokenGenerated ? ' (generated; set ADMIN_TOKEN to choose one)' : ''}`,
  );
  say(`CLI:   ${b.cli}`);
  say('');
}
