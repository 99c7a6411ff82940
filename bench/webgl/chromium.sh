#!/bin/sh
# Starts Chromium ($TFJSI_BENCH_CHROMIUM, default /usr/bin/chromium) for run-webgl.mjs. Run as
# root, Chromium raises its browser and GPU processes to nice -8, which a normal user cannot:
# on a shared machine it would then take CPU time from the other side of the comparison (and
# from everything else). Without CAP_SYS_NICE its request fails and it runs at our priority.
chromium=${TFJSI_BENCH_CHROMIUM:-/usr/bin/chromium}
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
  exec setpriv --bounding-set=-sys_nice --inh-caps=-sys_nice -- "$chromium" "$@"
fi
exec "$chromium" "$@"
