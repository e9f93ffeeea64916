/**
 * The issue-card slice's face to the other slices: the card as read (`cardDto`) and how a decided card is
 * stored (its write set and row sets), which a reversal (card-storno/) reuses.
 */
export type { IssueCardWriteSet } from './issue-card.decision.js';
export { cardDto, getIssueCard } from './issue-card.queries.js';
export { issueCardParts, storedIssueCardReply } from './issue-card.writer.js';
