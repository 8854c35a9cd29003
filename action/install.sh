#!/usr/bin/env bash
# covgate's GitHub Action, step 2: installs covgate from the action's own checkout into
# COVGATE_INSTALL_DIR, unless the cache restored it there, and puts it on PATH.
# In: COVGATE_SOURCE, COVGATE_INSTALL_DIR, GITHUB_PATH.
set -euo pipefail
if [ -x "$COVGATE_INSTALL_DIR/bin/covgate" ] || [ -x "$COVGATE_INSTALL_DIR/bin/covgate.exe" ]; then
    echo "covgate: using the cached build in $COVGATE_INSTALL_DIR"
else
    cargo install --locked --path "$COVGATE_SOURCE" --root "$COVGATE_INSTALL_DIR"
fi
echo "$COVGATE_INSTALL_DIR/bin" >>"$GITHUB_PATH"
