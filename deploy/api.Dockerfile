# The API image: compiled with tsc, run with plain node (npm run start:cluster runs the same
# dist/server.js the same way). Stateless, so it scales horizontally.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci checks every workspace's manifest against the lock file.
COPY packages/contract/package.json packages/contract/
COPY packages/state/package.json packages/state/
COPY packages/remotes/package.json packages/remotes/
COPY packages/release-registry/package.json packages/release-registry/
COPY packages/web-server/package.json packages/web-server/
COPY dev-services/package.json dev-services/
COPY api/package.json api/
COPY shell/package.json shell/
COPY mf-catalog/package.json mf-catalog/
COPY mf-cart-checkout/package.json mf-cart-checkout/
COPY mf-account/package.json mf-account/
COPY mf-admin/package.json mf-admin/
COPY e2e/package.json e2e/
RUN npm ci --workspace api --include-workspace-root
COPY tsconfig.base.json ./
COPY packages/contract packages/contract
COPY api api
# The contract ships as TypeScript for the bundlers and vitest; plain node runs its compiled
# dist/ through the package's "compiled" export condition (--conditions below).
RUN npm run build -w @boatshop/contract && npm run build -w api && npm prune --omit=dev --workspace api

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages/contract packages/contract
COPY --from=build /app/api api
WORKDIR /app/api
USER node
EXPOSE 4000
CMD ["node", "--conditions=compiled", "dist/server.js"]
