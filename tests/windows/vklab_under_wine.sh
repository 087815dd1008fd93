#!/usr/bin/env bash
# vklab.exe (scripts/windows/build.sh) under Wine on lavapipe against the Linux build of the
# same tree: every lab's headless capture byte for byte (the run's manifest in the PNG
# included), the bench JSON's keys, a bad parameter's message and exit code, and the window: a
# few frames and a capture with the interface. Exit 77 (skipped)
# where vklab.exe, Wine or Xvfb is missing. ctest -L windows-exe.
# Usage: vklab_under_wine.sh VKLAB_EXE LINUX_VKLAB WORK_DIR
set -euo pipefail
exe=$1 linux=$2 work=$3
wine=$(command -v wine64 || ls /usr/lib/wine/wine64 2>/dev/null || true)
if [ ! -f "$exe" ] || [ -z "$wine" ] || ! command -v xvfb-run > /dev/null; then
  echo "skipped: needs $exe (bash scripts/windows/build.sh), wine64 and xvfb-run"
  exit 77
fi
rm -rf "$work/run" && mkdir -p "$work/run" && cd "$work/run"
export WINEPREFIX="$work/wine" WINEDEBUG=-all VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
# A Wine server left by an earlier run (the platform probe's, started without a display) would
# serve this one, and Wine's Vulkan needs the display: it is ended first.
"$(dirname "$wine")/wineserver" -k 2> /dev/null || true
# Wine's Vulkan needs an X display, even for compute
win() { xvfb-run -a -s '-screen 0 1400x900x24' "$wine" "$exe" "$@"; }
fail() {
  echo "FAILED: $1"
  exit 1
}
win --list-devices > devices.txt 2>&1 || fail "--list-devices: $(cat devices.txt)"
grep -q "usable by vklab" devices.txt || fail "no usable device: $(cat devices.txt)"
for lab in $("$linux" --list-presets | cut -d/ -f1 | sort -u); do
  win --headless --lab "$lab" --steps 5 --size 640x400 --capture "$lab-windows.png" > "$lab.txt" 2>&1 ||
    fail "$lab: $(cat "$lab.txt")"
  "$linux" --headless --lab "$lab" --steps 5 --size 640x400 --capture "$lab-linux.png" > /dev/null 2>&1
  cmp "$lab-windows.png" "$lab-linux.png" || fail "$lab: the capture differs from Linux's"
  echo "$lab: the same picture"
done
# the same message and exit code for a bad parameter
set +e
win --headless --lab wave --set bogus=1 --steps 1 > bad-windows.txt 2>&1
code_w=$?
"$linux" --headless --lab wave --set bogus=1 --steps 1 > bad-linux.txt 2>&1
code_l=$?
set -e
[ "$code_w" = "$code_l" ] || fail "a bad parameter: exit $code_w on Windows, $code_l on Linux"
grep -q "$(head -c 60 bad-linux.txt)" bad-windows.txt || fail "a bad parameter's message: $(cat bad-windows.txt)"
echo "a bad parameter: exit $code_w and the same message"
# the bench's JSON: the same keys, row for row
keys() { python3 -c "import json,sys
def walk(v,p):
  if isinstance(v,dict):
    for k in sorted(v): walk(v[k],p+'/'+k)
  elif isinstance(v,list) and v and isinstance(v[0],dict): walk(v[0],p+'[]')
  else: print(p)
walk(json.load(open(sys.argv[1])),'')" "$1" | grep -v -e '/timing' -e 'seconds' | sort -u; }
win bench --lab diffusion --quick --out bench-windows.json > bench-windows.txt 2>&1 || fail "bench: $(cat bench-windows.txt)"
"$linux" bench --lab diffusion --quick --out bench-linux.json > /dev/null 2>&1
diff <(keys bench-windows.json) <(keys bench-linux.json) || fail "the bench JSON's keys differ"
echo "bench --lab diffusion --quick: the same keys"
# the window: frames drawn, a capture of the whole window
win --lab cloth --frames 20 --size 1024x640 --with-interface --capture window.png > window.txt 2>&1 ||
  fail "the window: $(cat window.txt)"
[ "$(stat -c %s window.png)" -gt 50000 ] || fail "the window's capture is nearly empty"
grep -q "window: 20 frames" window.txt || fail "the window did not draw its frames: $(cat window.txt)"
echo "the window: 20 frames and a capture"
