#!/usr/bin/env bash
# Installs the Debian packages ModuleHost needs on a fresh machine; does nothing when they
# are already there. The Swift toolchain itself (6.3, /opt/swift) is expected on PATH.
set -euo pipefail

packages=(
    binutils          # nm, used by the tests that prove one copy of the kit
    libsqlite3-dev    # module storage (ModuleKit's CSQLite)
    libcrypt-dev      # Auth's password hashing (CCrypt)
    libssl3           # libcrypto: the kit's SHA-256 (library pins, reset tokens, cache names), opened on first use
    util-linux        # setpriv(1): the trust tests run a swapper as nobody; unshare(1): a full disk's namespace
    mount             # mount(8): the full-disk tests mount a small tmpfs in a namespace of their own
    gcc               # the trust tests build a C library with a run path of its own
    tmux              # the reference terminal the integration-test library's screen model is checked against
    zsh               # the completion scripts are loaded by the real shells in the tests
    fish
    man-db            # man -l renders the generated manual page in the tests
    graphviz          # dot: 'modhost graph --format svg' draws with it; the tests parse its DOT
    libseccomp-dev    # the sandbox of a module in a process of its own (CHostSandbox's seccomp filter)
)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
command -v swift >/dev/null || { echo "setup: 'swift' is not on PATH; add /opt/swift/usr/bin" >&2; exit 1; }
