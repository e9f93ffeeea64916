/**
 * The access-point connector's own look-up (issue #23): whether a participant id is registered on the
 * Peppol network through this connector. `loopback` and `folder`: every company with a `peppolId` (the
 * connector is the network, or the folder provider registers the companies it serves); `phoss`: null,
 * since phoss-ap's API does not say (its SMP does).
 */
import { defineContract } from '../contract.js';
import { z } from '../primitives.js';
import { AccessPointTransport } from './settings.contract.js';

/** `access-point.participants.get`: `registered` true/false, or null when the transport cannot tell. */
export const getParticipant = defineContract({
  subject: 'access-point.participants.get',
  request: z.object({ peppolId: z.string().min(3).max(200) }),
  reply: z.object({ transport: AccessPointTransport, registered: z.boolean().nullable() }),
});
