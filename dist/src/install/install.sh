#!/usr/bin/env bash
# Installs this stackbench archive into a prefix, without a build (docs/install.md):
#   tar xzf stackbench-VERSION.tar.gz && stackbench-VERSION/install.sh --prefix /opt/stackbench
# puts the lab in PREFIX/lib/stackbench and the command in PREFIX/bin/stackbench (a link to its launcher). An earlier
# install there is replaced, but the tools it built (.tools/: oha, k6) are kept. Needs a JDK 21 or newer to run (the
# launcher finds it as a checkout's does); nothing is compiled.
set -euo pipefail

usage() {
  cat <<USAGE
Usage: install.sh [--prefix DIR]
  Installs stackbench into DIR/lib/stackbench and links DIR/bin/stackbench to its launcher.
  --prefix DIR   where to install (default: /usr/local as root, else \$HOME/.local)
Then, from any folder: stackbench run quick, stackbench run my-suite.yaml (results in ./results/), stackbench --help.
USAGE
}

if [ "$(id -u)" = 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) if [ $# -eq 1 ] && [ "${1#-}" = "$1" ]; then prefix="$1"; shift; else echo "install.sh: unknown argument '$1'" >&2; usage >&2; exit 2; fi ;;
  esac
done

src="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
[ -f "$src/runner/target/stackbench-runner.jar" ] && [ -x "$src/stackbench" ] ||
  { echo "install.sh: $src is not an unpacked stackbench archive (no runner/target/stackbench-runner.jar or launcher)" >&2; exit 2; }
mkdir -p "$prefix" || { echo "install.sh: cannot create $prefix" >&2; exit 2; }
prefix="$(cd "$prefix" && pwd)"
home="$prefix/lib/stackbench"
case "$home/" in "$src/"*) echo "install.sh: cannot install into the archive's own folder ($src)" >&2; exit 2 ;; esac
[ -w "$prefix" ] || { echo "install.sh: $prefix is not writable by $(id -un) (run as root, or choose --prefix \$HOME/.local)" >&2; exit 2; }

mkdir -p "$prefix/lib" "$prefix/bin"
staging="$(mktemp -d "$prefix/lib/.stackbench-install.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
cp -R "$src/." "$staging/"
# an earlier install's built tools (oha, k6) and its runner class-data archives are kept; everything else is replaced
if [ -d "$home/.tools" ]; then rm -rf "$staging/.tools"; mv "$home/.tools" "$staging/.tools"; fi
rm -rf "$home"
mv "$staging" "$home"
trap - EXIT
chmod 0755 "$home" "$home/stackbench" "$home/install.sh"
ln -sfn "../lib/stackbench/stackbench" "$prefix/bin/stackbench"

echo "installed $("$prefix/bin/stackbench" --version) into $home"
echo "the command: $prefix/bin/stackbench"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add it to your PATH: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
echo "try: cd a-folder-of-yours && stackbench plan quick && stackbench run quick   (results in ./results/)"
