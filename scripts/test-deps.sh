#!/usr/bin/env bash
# `npm test`'s first step: the Debian packages the tests drive. Run as root it installs whichever
# are missing; otherwise it names the one command that does. Nothing is needed: exits at once.
set -euo pipefail

missing=()
need() { # need PACKAGE... when the check before it failed
  missing+=("$@")
}
has() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/bin/$1" ] || [ -x "/usr/sbin/$1" ]; }

# Browser tests (Playwright) drive Debian's Chromium (CHROMIUM_PATH picks another).
if [ -z "${CHROMIUM_PATH:-}" ] && ! has chromium; then need chromium fonts-dejavu-core; fi
# The guides' runnable blocks (tests/docs/runnable.test.ts) use curl and jq, as readers do.
has jq || need jq
has curl || need curl ca-certificates
# Checkers for the API pages' code samples (tests/codegen/samples-syntax.test.ts): javac and Mono's
# mcs compile Java and C#, go vet type-checks Go, php -l and ruby -c check PHP and Ruby, rustfmt
# parses Rust.
has javac || need openjdk-17-jdk-headless
has go || need golang-go
if ! has mcs || [ ! -e /usr/lib/mono/4.5/System.Net.Http.dll ]; then need mono-mcs libmono-system-net-http4.0-cil; fi
has php || need php-cli
has ruby || need ruby
has rustfmt || need rustfmt
# Running the samples (tests/codegen/samples-run.test.ts): Python's use requests, PHP's Guzzle,
# as Debian packages them (the PHP samples' vendor/autoload.php loads Debian's autoloader).
python3 -c 'import requests' >/dev/null 2>&1 || need python3-requests
[ -e /usr/share/php/GuzzleHttp/autoload.php ] || need php-guzzlehttp-guzzle
# Rust's samples build offline with Debian's cargo and rustc (by path: a rustup toolchain does not
# count) against Debian's crate sources in /usr/share/cargo/registry.
if [ ! -x /usr/bin/cargo ] || [ ! -x /usr/bin/rustc ]; then need cargo rustc; fi
if ! ls -d /usr/share/cargo/registry/reqwest-0.11.* /usr/share/cargo/registry/serde_json-1.* >/dev/null 2>&1; then
  need librust-reqwest-dev librust-serde-json-dev
fi
# Real client code in the server and quickstart tests: Mono (above) runs Squirrel.Windows' own
# RELEASES parser (tests/server/clients/squirrel-windows.ts); minisign checks Tauri signatures
# (tests/server/clients/tauri.ts).
has minisign || need minisign
# Real services the server tests start on 127.0.0.1: Redis, PostgreSQL
# (services/postgres-server.ts) and Ceph's radosgw on a one-node cluster (services/s3-server.ts).
has redis-server || need redis-server
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need postgresql
if ! has radosgw || ! has ceph-mon || ! has ceph-osd; then need radosgw ceph-mon ceph-osd; fi
# nginx for tests/migrating/rewrites.test.ts: the migration guides' rewrite rules in front of Ferry.
has nginx || need nginx-light
# Varnish in front of Ferry in tests/server/edge-cache.test.ts and npm run bench:edge (varnishd
# compiles its VCL with the C compiler, which the package depends on).
has varnishd || need varnish
# osslsigncode signs the Windows test fixtures of tests/server/signer-continuity.test.ts; wixl
# builds its MSI packages and msitools' msiinfo extracts their signature stream
# (tests/server/compound-file.test.ts).
has osslsigncode || need osslsigncode
has wixl || need wixl
has msiinfo || need msitools
# The Linux repository tests (tests/server/linux-repositories.test.ts): dnf as a client, and rpm
# (rpmbuild, rpmsign) and gnupg to build signed fixtures; apt-get and dpkg-deb are Debian's own.
if ! has dnf || ! has rpmbuild || ! has gpg; then need dnf rpm gnupg; fi
# zip builds the stand-in MSIX package (a zip holding its AppxManifest.xml) of the updaters guide.
has zip || need zip
# dmg2img converts the test's UDIF disk images back to raw ones (tests/server/disk-image-signature.test.ts).
has dmg2img || need dmg2img
# systemd-analyze verifies local-deploy's unit (tests/docs/systemd-unit.test.ts).
has systemd-analyze || need systemd
# debootstrap builds the minimal Debian root the Dockerfile's steps run in
# (tests/deploy/docker-image.test.ts).
has debootstrap || need debootstrap

[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "npm test needs Debian packages that are missing; install them as root, then run npm test again:" >&2
  echo "  $command" >&2
  exit 1
fi

echo "npm test: installing missing Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Debian's nginx package would start a system nginx on port 80 of every interface: an
# invoke-rc.d policy keeps services from starting (an image's own policy stays as it was).
own_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
fi
trap '[ -z "$own_policy" ] || rm -f /usr/sbin/policy-rc.d' EXIT
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends ${missing[*]} >/dev/null
