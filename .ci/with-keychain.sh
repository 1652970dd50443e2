#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring (a real Secret
# Service) and a throwaway HOME, so keychain code is tested for real and never touches your own
# keyring. Needs the Debian packages dbus, dbus-x11, gnome-keyring and libsecret-1-0.
#
#   .ci/with-keychain.sh npm test
#   .ci/with-keychain.sh npx vitest run test/unit/token-store.test.ts
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null; then
    echo "$0: $tool is missing (apt-get install dbus dbus-x11 gnome-keyring libsecret-1-0)" >&2
    exit 1
  fi
done

# npm's cache stays in the real HOME so installs are not repeated; everything else goes to the
# throwaway one (the keyring files among them).
export npm_config_cache="${npm_config_cache:-$HOME/.npm}"
throwaway_home=$(mktemp -d "${TMPDIR:-/tmp}/catalog-desk-home.XXXXXX")
trap 'rm -rf "$throwaway_home"' EXIT
export HOME="$throwaway_home"
export XDG_DATA_HOME="$HOME/.local/share" XDG_CONFIG_HOME="$HOME/.config" XDG_CACHE_HOME="$HOME/.cache"

# The daemon prints GNOME_KEYRING_CONTROL=...; with --unlock it creates the login keyring with
# the given password and unlocks it. It exits when the session bus goes away.
# shellcheck disable=SC2016 # expanded by the inner bash
dbus-run-session -- bash -c '
  set -euo pipefail
  eval "$(printf %s pass | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL
  "$@"
' with-keychain "$@"
