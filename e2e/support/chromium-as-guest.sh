#!/usr/bin/env bash
# Debian's Chromium run as the unprivileged user `nobody`: the TURN journeys take UDP away from
# this browser alone with an nftables rule on that user's sockets (e2e/support/turn.ts), while
# the agent's browser, Janus and coturn keep theirs. Playwright talks to the browser over the
# pipes it inherits, which the change of user keeps.
set -euo pipefail
profile=
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*) profile="${arg#--user-data-dir=}" ;;
  esac
done
if [ -z "$profile" ]; then
  echo "chromium-as-guest: Playwright passed no --user-data-dir" >&2
  exit 2
fi
# Playwright made the profile folder, root's and 0700: the browser must write into it.
chown -R nobody:nogroup "$profile"
export HOME="$profile" XDG_CONFIG_HOME="$profile/.config" XDG_CACHE_HOME="$profile/.cache"
exec setpriv --reuid=nobody --regid=nogroup --clear-groups -- /usr/bin/chromium "$@"
