# The MCP server as a container, for `docker compose --profile app up`.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts && npm cache clean --force
COPY tsconfig.json ./
COPY src ./src
COPY index-mappings ./index-mappings
# The server falls back to the URLs a local stack recorded (scripts/stack/state.ts) when none are set.
COPY scripts ./scripts
COPY stack ./stack
USER node
EXPOSE 3000
CMD ["npx", "tsx", "src/main.ts"]
