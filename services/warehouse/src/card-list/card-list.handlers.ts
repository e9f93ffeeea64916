/** The lists of issue cards and receipt cards (extension; DESIGN §2 "Lists"). Transport only. */
import { listIssueCards, listReceiptCards } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx, ServiceKit } from '@bm/service-kit';
import * as lists from './card-lists.js';

type X = { em: Ctx['em'] };

/** Registers both lists. */
export function registerCardLists(kit: ServiceKit): void {
  serve<typeof listIssueCards, X>(
    kit.service,
    listIssueCards,
    (q, ctx) => lists.listIssueCards(ctx, q),
    kit.serveOpts,
  );
  serve<typeof listReceiptCards, X>(
    kit.service,
    listReceiptCards,
    (q, ctx) => lists.listReceiptCards(ctx, q),
    kit.serveOpts,
  );
}
