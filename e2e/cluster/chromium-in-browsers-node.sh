#!/usr/bin/env bash
# Debian's Chromium inside the simulated cluster's browsers' node (e2e/cluster/global-setup.ts
# names its namespace): it reaches the cluster as a visitor's machine would, through haproxy.
# nsenter execs the browser, so Playwright keeps its pipes to it.
set -euo pipefail
exec nsenter --net="${FRONTDESK_BROWSERS_NETNS:?run through e2e/cluster/playwright.config.ts}" -- /usr/bin/chromium "$@"
