/** The per-message context a service handler receives (DESIGN §1 "Every message carries headers"). */
import type { Logger } from '@bm/logger';

export interface RequestContext {
  /** Tenant; absent only on company-less messages (provisioning carries it in the body). */
  companyId?: string;
  userId?: string;
  requestId: string;
  /** IANA zone of the company; business dates are calendar dates in it. */
  timeZone: string;
  /**
   * When the sender stops waiting for the answer (`Date.now()` ms on this host), from the `Timeout-Ms`
   * header: work past it is abandoned and nothing is stored (issue #12). Absent: no deadline.
   */
  deadline?: number;
}

/** Today's calendar date (`YYYY-MM-DD`) in an IANA time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export interface HandlerContext<Em = unknown> extends RequestContext {
  log: Logger;
  em: Em;
}
