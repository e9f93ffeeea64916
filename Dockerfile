# One image for every process of the stack; the command picks the process:
#   gateway:   node --import tsx gateway/src/main.ts
#   services:  node --import tsx services/<warehouse|invoicing|reporting|access-point>/src/main.ts
FROM node:24-bookworm-slim
ENV COREPACK_INTEGRITY_KEYS=0
WORKDIR /app
RUN corepack enable
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY gateway/package.json gateway/
COPY services/warehouse/package.json services/warehouse/
COPY services/invoicing/package.json services/invoicing/
COPY services/reporting/package.json services/reporting/
COPY services/access-point/package.json services/access-point/
COPY shared/ shared/
# Workspace packages the lockfile names (the typed client and the consumer example, issue #14).
COPY clients/typescript/package.json clients/typescript/
COPY examples/stock-issued-consumer/package.json examples/stock-issued-consumer/
RUN pnpm install --frozen-lockfile
COPY . .
ENV NODE_ENV=production
# The gateway binds loopback by default (pnpm start); in a container it must bind every interface.
ENV HOST=0.0.0.0
# The secrets volume (docker-compose.yml) takes this folder's owner on first use: the node user.
RUN mkdir -p /secrets && chown node:node /secrets && chmod 700 /secrets
USER node
CMD ["node", "--import", "tsx", "gateway/src/main.ts"]
