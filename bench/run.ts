/** `pnpm bench <name>`: runs bench/<name>.bench.ts (issue-cards, …). */
const name = process.argv[2];
if (!name) {
  console.error(
    'usage: pnpm bench <issue-cards|repost|invoices|e-invoices|printouts|health|throughput|compare|reply-rendering|bank-import|auth-flood|pg-cluster>',
  );
  process.exit(2);
}
await import(`./${name}.bench.ts`);
