/**
 * The NATS headers of the AsyncAPI document (issue #14): on requests, replies, error replies and events,
 * each with what it carries (DESIGN §2, §3, §5; issues #12, #24).
 */
import { Headers } from './contract.js';
import { EVENT_VERSION_HEADER } from './events.js';
import { EVENTS_BUCKET, EVENTS_STREAM_NAME, MESSAGES_BUCKET } from './permissions.js';

/** A JSON value of the document. */
export type Json = Record<string, unknown>;

/** A string header of `description`. */
export const str = (description: string, extra: Json = {}): Json => ({
  type: 'string',
  description,
  ...extra,
});

const LARGE_PAYLOAD = `Name of the object in the JetStream object store that holds a payload above the server's message limit (the message body is then empty): bucket \`${MESSAGES_BUCKET}\` for requests and replies`;

const BATCH_FRAMES =
  "Each frame is a 4-byte big-endian length, a JSON object of the headers that message would carry alone (a refused request's `Nats-Service-Error-Code` and `Nats-Service-Error` among them), a 4-byte big-endian length and the body.";
const BATCH = `Set when the message carries several requests to this subject as frames (request coalescing, issue #24): their number. The body is then the frames, one per request; the per-request headers above travel in each frame, not on the message. ${BATCH_FRAMES} A message marked so that is not well-formed frames is refused whole (400 BadRequest). Without this header the body is one request.`;

/** Headers every request carries (DESIGN §1 "Every message carries headers"). */
export const requestHeaders: Json = {
  type: 'object',
  properties: {
    [Headers.companyId]: str(
      'The company the request acts for (GUID); the service scopes every read and write to it',
      {
        format: 'uuid',
      },
    ),
    [Headers.userId]: str('The authenticated user (API user of the company)'),
    [Headers.requestId]: str('Correlation id of the HTTP request; echoed in logs and problem documents'),
    [Headers.timeZone]: str('The company\'s IANA time zone, for its "today" (e.g. Europe/Bratislava)'),
    [Headers.timeoutMs]: str(
      'Milliseconds left for the request when it was sent (decimal integer); the service stores nothing past it and answers 504',
      { pattern: '^[0-9]+$' },
    ),
    [Headers.traceparent]: str(
      `W3C trace context of the sender's span: the service continues its trace (00-<trace id>-<span id>-<flags>), present while tracing is on (docs/operations.md "Traces")`,
      { pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
    ),
    'Payload-Object': str(LARGE_PAYLOAD),
    [Headers.batchSize]: str(BATCH, { pattern: '^[0-9]+$' }),
  },
};

/** Headers of every reply. */
export const replyHeaders: Json = {
  type: 'object',
  properties: {
    [Headers.instance]: str('Id of the service replica that answered'),
    'Payload-Object': str(LARGE_PAYLOAD),
    [Headers.batchSize]: str(
      `On the reply to a batch: the number of frames, one per request in the same order. ${BATCH_FRAMES}`,
      {
        pattern: '^[0-9]+$',
      },
    ),
  },
};

/** Headers of an error reply (`Nats-Service-Error-Code` set). */
export const errorHeaders: Json = {
  type: 'object',
  required: ['Nats-Service-Error-Code', 'Nats-Service-Error'],
  properties: {
    'Nats-Service-Error-Code': str('HTTP-like status of the error (400, 404, 409, 422, 429, 503, 504, …)', {
      pattern: '^[0-9]{3}$',
    }),
    'Nats-Service-Error': str('The error code, as in the body'),
    [Headers.instance]: str('Id of the service replica that answered'),
  },
};

/** Headers of every event. */
export const eventHeaders: Json = {
  type: 'object',
  required: ['Nats-Msg-Id', EVENT_VERSION_HEADER, Headers.companyId],
  properties: {
    'Nats-Msg-Id': str(
      `The event id (equals the payload's \`eventId\`): the stream drops a duplicate publish within 2 minutes`,
      { format: 'uuid' },
    ),
    [EVENT_VERSION_HEADER]: str(
      'Major version of the payload schema (decimal integer); see "Event versions" in docs/decisions.md',
      { pattern: '^[0-9]+$' },
    ),
    [Headers.companyId]: str('The company the event belongs to (GUID)', { format: 'uuid' }),
    [Headers.traceparent]: str(
      `W3C trace context of the request that wrote the event: its consumers continue that trace (00-<trace id>-<span id>-<flags>), present while tracing is on (docs/operations.md "Traces")`,
      { pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
    ),
    'Payload-Object': str(
      `Set when the payload was above the server's message limit: the object in bucket \`${EVENTS_BUCKET}\` that holds it (the message body is then empty)`,
    ),
    'Payload-Bucket': str(`The object store bucket of \`Payload-Object\` (\`${EVENTS_BUCKET}\`)`),
  },
};

/** How events are delivered: outbox, stream, de-duplication, order. */
export const DELIVERY = `Published through the producer's transactional outbox to the JetStream stream \`${EVENTS_STREAM_NAME}\` (subjects \`events.>\`, kept 30 days), with the event id as \`Nats-Msg-Id\`. Delivery is at least once: the same event can arrive again (after a crash between publish and bookkeeping, or a redelivery), so a consumer de-duplicates by \`eventId\`. Order is per subject as published, not across subjects.`;
