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

/**
 * One formatter per time zone: building an `Intl.DateTimeFormat` costs far more than using one (it was
 * among the warehouse's top frames in issue #13's profile).
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar date (`YYYY-MM-DD`) in an IANA time zone. @throws RangeError for an unknown zone */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let f = dayFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (dayFormats.size < 1000) dayFormats.set(timeZone, f);
  }
  return f.format(now);
}

export interface HandlerContext<Em = unknown> extends RequestContext {
  log: Logger;
  em: Em;
}
