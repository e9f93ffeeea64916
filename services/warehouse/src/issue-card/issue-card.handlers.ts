/**
 * Issue-card endpoints (INTERFACE §4.1): create, read and copy. Transport only: each decodes the
 * contract's request and calls its use case.
 */
import { copyIssueCard, createIssueCard, getIssueCard } from '@bm/contracts';
import { serve } from '@bm/messaging';
import type { Ctx, DocumentDeps } from '@bm/service-kit';
import { copyIssueCard as copyCard } from './copy-issue-card.js';
import { issueCard } from './issue-card.kind.js';
import { getIssueCard as readIssueCard } from './issue-card.queries.js';

type X = { em: Ctx['em'] };

/** Registers the issue-card endpoints. */
export function registerIssueCards(deps: DocumentDeps): void {
  const { kit } = deps;
  serve<typeof createIssueCard, X>(
    kit.service,
    createIssueCard,
    (input, ctx) => issueCard(deps, ctx, input, { store: true }),
    kit.serveOpts,
  );
  serve<typeof getIssueCard, X>(
    kit.service,
    getIssueCard,
    ({ id }, ctx) => readIssueCard(ctx.em, id),
    kit.serveOpts,
  );
  serve<typeof copyIssueCard, X>(
    kit.service,
    copyIssueCard,
    (q, ctx) => copyCard(deps, ctx, q.sourceId, q.dateOperation, q.store),
    kit.serveOpts,
  );
}
