# Ferry API server. Build: docker build -t ferry . — run: docker compose up -d (see compose.yaml).

# Dependencies. Node's version matches .nvmrc (a unit test checks).
FROM node:24.21.0-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Only `dependencies`, which are exactly the server's runtime (a unit test keeps it so), and no
# install scripts: better-sqlite3 loads the prebuilt binary its package ships (linux x64/arm64,
# glibc and musl), while npm's implicit `node-gyp rebuild` for it needs Python and a compiler, which
# a -slim image lacks. The image's Node is already the pinned one: the second Node that npm
# installs for older machines (optionalDependencies node-linux-*) goes.
RUN npm ci --omit=dev --ignore-scripts && rm -rf node_modules/node-linux-* node_modules/.bin/node

# Ferry Console, which the server serves at /console. The server's dependencies build it (esbuild
# comes with tsx); scripts/build-console.ts fetches the React that package-lock.json pins, which they
# lack. Only the built files go on: a stage with all devDependencies would download over 1 GB.
FROM node:24.21.0-bookworm-slim AS console
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY scripts/build-console.ts scripts/console-build-deps.ts ./scripts/
COPY public/favicon.svg ./public/
COPY components ./components
COPY styles ./styles
COPY server ./server
RUN node --import tsx scripts/build-console.ts

# Runtime: only what the server needs, run as the unprivileged `node` user.
FROM node:24.21.0-bookworm-slim
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=console /app/console-dist ./console-dist
COPY package.json package-lock.json tsconfig.json .nvmrc ./
COPY server ./server
# The contract in code, which the server shares with lib/ and the site (see ARCHITECTURE.md).
COPY contract ./contract
RUN mkdir -p /data && chown node:node /data
USER node
ENV FERRY_HOST=0.0.0.0 \
    FERRY_PORT=8080 \
    FERRY_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s \
  CMD node -e "fetch('http://127.0.0.1:8080/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# node itself is PID 1's child (compose sets init: true), so SIGTERM reaches the server and it
# drains in-flight requests; `npm run server` would add npm and tsx processes that drop the signal.
CMD ["node", "--import", "tsx", "server/runtime/node.ts"]
