# syntax=docker/dockerfile:1
# The MCP server as a container image: `docker build -t hiring-leads .`, or the `app` and `cluster`
# profiles of docker-compose.yml. There is no Docker engine in CI, so
# test/integration/runtime-image.test.ts rebuilds the runtime stage from this file (its COPY, RUN,
# ENV, HEALTHCHECK and CMD lines) in a temporary folder and runs it against the test stack.

# Build: the TypeScript server and the MCP App views compiled to dist/ with the development
# dependencies, which stay in this stage. No package needs its install script for the build.
FROM node:24.21-slim AS build
WORKDIR /build
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime: the compiled server, package.json (its version and "type": "module") and the production
# dependencies; nothing else. The server reads no other file: the index mappings are the seed's.
FROM node:24.21-slim AS runtime
WORKDIR /app
# HOST 0.0.0.0 is the container's own network; the port is published where the operator chooses.
# Node sizes its heap for the machine (4 GiB on a 24 GiB host) and lets garbage pile up to match:
# CMD caps the old generation at 384 MiB, which makes V8 collect before the heap grows (a busy
# server keeps under 100 MiB of heap), and the young generation's semi-spaces at 16 MiB;
# MALLOC_ARENA_MAX=2 stops glibc adding an arena per thread (docs/performance.md, "Memory").
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 MALLOC_ARENA_MAX=2
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY --from=build /build/dist ./dist
# The files stay root's: the server can read its code but not change it.
USER node
EXPOSE 3000
# /readyz answers 200 only while Elasticsearch and MongoDB both answer; slim images have no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=384", "dist/main.js"]
