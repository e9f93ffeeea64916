/** The count of failed bookings of a received document (issue #43; `received_e_invoice.booking_attempts`). */
import type { EntityManager } from '@bm/service-kit';

/**
 * Counts one booking of record `id` that failed for another reason than a refusal; resolves to the count
 * so far (issue #43: after a bounded number the record is `needs-attention`).
 */
export async function countFailedBooking(em: EntityManager, id: string): Promise<number> {
  const [r] = await em.execute<{ booking_attempts: number }[]>(
    `update "invoicing"."received_e_invoice" set "booking_attempts" = "booking_attempts" + 1
      where "id" = ? returning "booking_attempts"`,
    [id],
  );
  return Number(r?.booking_attempts ?? 0);
}
