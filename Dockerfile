# syntax=docker/dockerfile:1
# Multi-stage: compile TypeScript with the dev dependencies, ship only the runtime ones.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    # Probot listens on localhost unless told otherwise; a container must listen on all.
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY app.yml ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The instrumentation is loaded first so it patches http and ioredis; it loads nothing of
# OpenTelemetry unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md "Traces").
CMD ["node", "--import", "./dist/src/telemetry/instrument.js", "dist/src/app/main.js"]
