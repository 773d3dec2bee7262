#!/usr/bin/env bash
# Checks deploy/proxy.conf and deploy/static-site.conf.template against a real nginx on loopback
# ports (Debian's nginx: apt-get install -y nginx): `nginx -t` on both, then curl probes for
# request splitting through /remotes/, CORS limited to the shop's origin, and no dotfiles.
# Usage: deploy/check-nginx.sh   (exit status 0 when every probe passes)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

mkdir -p "$work/snippets" "$work/html" "$work/logs"
cp "$here/security-headers.conf" "$work/snippets/boatshop-security-headers.conf"
cp "$here/hide-upstream-headers.conf" "$work/snippets/boatshop-hide-upstream-headers.conf"
echo '{}' > "$work/remotes.json"

# An upstream that answers with the request line it received, to see what nginx sent on.
echo_port=$(free_port)
python3 - "$echo_port" > /dev/null 2>&1 <<'PY' &
import http.server, sys
class Echo(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = self.raw_requestline
        self.send_response(200); self.send_header('content-length', str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *args): pass
http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), Echo).serve_forever()
PY
echo $! > "$work/echo.pid"

run_nginx() { # name, server config file
  local port; port=$(free_port)
  cat > "$work/$1.nginx.conf" <<CONF
pid $work/$1.pid;
error_log $work/logs/$1.error.log;
events {}
http {
  access_log off;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  include $2;
}
CONF
  sed -i "s#listen 80;#listen 127.0.0.1:$port;#" "$2"
  nginx -t -q -p "$work" -c "$work/$1.nginx.conf"
  nginx -p "$work" -c "$work/$1.nginx.conf"
  echo "$port"
}

# proxy.conf: the four remotes' names resolve through upstream blocks to the echo server (the
# real file's ":80" dropped for that, as an upstream block matches a name without a port).
sed -e "s#/etc/nginx/snippets/#$work/snippets/#g" -e "s#/etc/boatshop/remotes.json#$work/remotes.json#" \
    -e 's#http://$remote_host:80;#http://$remote_host;#' "$here/proxy.conf" > "$work/proxy.conf"
for name in mf-catalog mf-cart-checkout mf-account mf-admin; do
  echo "upstream $name { server 127.0.0.1:$echo_port; }" >> "$work/proxy.conf"
done
proxy_port=$(run_nginx proxy "$work/proxy.conf")
sent=$(curl -s "http://127.0.0.1:$proxy_port/remotes/mf-catalog/remoteEntry.js?v=1")
check "proxy passes /remotes/mf-catalog/remoteEntry.js?v=1 on as /remoteEntry.js?v=1" '[[ "$sent" == "GET /remoteEntry.js?v=1 HTTP/1.0"* ]]'
sent=$(curl -s "http://127.0.0.1:$proxy_port/remotes/mf-catalog/x%20HTTP/1.1%0d%0aHost:%20evil%0d%0a%0d%0aGET%20/y")
check "an encoded CR LF in the path stays encoded upstream (no request splitting)" '[[ "$sent" == "GET /x%20HTTP/1.1%0D%0AHost:%20evil%0D%0A%0D%0AGET%20/y HTTP/1.0"* ]]'
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$proxy_port/remotes/evil.example/x")
check "an unknown remote name is not proxied" '[[ "$status" != 200 ]]'

# static-site.conf.template rendered the way the nginx image's entrypoint does.
SHOP_ORIGIN=https://boats.example envsubst '${SHOP_ORIGIN}' < "$here/static-site.conf.template" \
  | sed -e "s#/etc/nginx/snippets/#$work/snippets/#g" -e "s#/usr/share/nginx/html#$work/html#" > "$work/static.conf"
echo '<!doctype html>' > "$work/html/index.html"
echo '{}' > "$work/html/mf-manifest.json"
echo 'SECRET=1' > "$work/html/.env"
static_port=$(run_nginx static "$work/static.conf")
acao() { curl -s -o /dev/null -D - -H "Origin: $1" "http://127.0.0.1:$static_port/mf-manifest.json" | tr -d '\r' | grep -i '^access-control-allow-origin:' || true; }
check "the shop's origin is allowed" '[[ "$(acao https://boats.example)" == "Access-Control-Allow-Origin: https://boats.example" ]]'
check "another origin gets no Access-Control-Allow-Origin" '[[ -z "$(acao https://evil.example)" ]]'
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$static_port/.env")
check "dotfiles answer 404" '[[ "$status" == 404 ]]'
exit $fail
