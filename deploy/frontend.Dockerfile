# One image per front end (build arg APP), so each team ships its remote on its own cycle.
FROM node:22-bookworm-slim AS build
ARG APP
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY packages packages
COPY dev-services/package.json dev-services/
COPY api/package.json api/
COPY shell/package.json shell/
COPY mf-catalog/package.json mf-catalog/
COPY mf-cart-checkout/package.json mf-cart-checkout/
COPY mf-account/package.json mf-account/
COPY mf-admin/package.json mf-admin/
COPY e2e/package.json e2e/
RUN npm ci --workspace ${APP} --include-workspace-root
COPY ${APP} ${APP}
RUN npm run build -w ${APP}

# The shell runs its own server (packages/web-server), not nginx: each page's head (title,
# canonical, sharing tags, Product JSON-LD), its status (404 for an unknown product), the
# sitemap and the first-paint data block are computed per request from the API.
# docker-compose.yml builds the shell with `target: shell-server`. The shell's build bundles that
# server to plain JavaScript (shell/build-server.mjs), so it starts without compiling anything;
# npm run start:cluster runs the same file.
FROM node:22-bookworm-slim AS shell-server
ENV NODE_ENV=production HOST=0.0.0.0 SHELL_PORT=3000
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["node", "shell/server/dist/serve.js"]

# Every remote: its dist as a static site (the default target).
FROM nginx:1.27-alpine
ARG APP
# The entrypoint renders the template with SHOP_ORIGIN (the only origin allowed by CORS).
ENV SHOP_ORIGIN=http://localhost:8080
COPY deploy/static-site.conf.template /etc/nginx/templates/default.conf.template
COPY deploy/security-headers.conf /etc/nginx/snippets/boatshop-security-headers.conf
COPY --from=build /app/${APP}/dist /usr/share/nginx/html
