# Multi-stage: build with the compilers better-sqlite3 needs, run on a slim image with only what runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY commands ./commands
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    DATABASE_URL=file:/data/bot.db
COPY --from=build /app/package.json /app/prisma.config.ts ./
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The database lives in a volume, so it outlives the container.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
# The bot applies pending migrations itself at start-up (src/store/migrations.ts; no Prisma CLI), then logs in.
# As `npm start`: the bot sets V8's memory flags itself once started (src/main.ts, docs/performance.md).
CMD ["node", "dist/src/main.js"]
