# syntax=docker/dockerfile:1
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data CHROMIUM_PATH=/usr/bin/chromium \
    MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
# Chromium renders recipe pages built by scripts (recipe import); without it import reads the fetched HTML only.
RUN apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 3001
# node is PID 1's child of nothing: it receives SIGTERM directly and shuts down gracefully.
# Memory (bench/README.md): a 16 MB young generation (V8 sizes it from the host's memory otherwise: 134 MB on a
# 24 GB host) and an old generation that grows by 20% between collections instead of doubling; no hard cap.
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=40", "server.js"]
