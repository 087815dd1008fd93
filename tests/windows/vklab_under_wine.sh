#!/usr/bin/env bash
# vklab.exe (scripts/windows/build.sh) under Wine on lavapipe against the Linux build of the
# same tree, one PART at a time (each a CTest test under the label windows-exe, well under 30 s):
#   captures-a, captures-b  every lab's headless capture byte for byte (the run's manifest in the
#                           PNG included), the labs in two halves
#   cli                     the devices listed, a bad parameter's message and exit code, the bench
#                           JSON's keys row for row, an MP4 recorded through the FFmpeg DLLs
#   window                  a few frames and a capture with the interface
#   readme-headless, readme-headless-2, readme-bench
#                           the README's examples ("Using it") run as written with vklab.exe: the
#                           Linux suite's Readme tests with VKLAB_EXE set to it
#   cli-suite               the Linux suite's command-line tests that run without the validation
#                           layer, with vklab.exe (below)
#   zip                     vklab-windows-x64.zip unpacked outside the tree and run from another
#                           folder: its shaders, assets and FFmpeg's DLLs found beside vklab.exe
# Exit 77 (skipped) where vklab.exe, Wine or Xvfb is missing.
# Usage: vklab_under_wine.sh PART VKLAB_EXE LINUX_VKLAB LINUX_TESTS WORK_DIR
set -euo pipefail
part=$1 exe=$2 linux=$3 tests=$4 work=$5
wine=$(command -v wine64 || ls /usr/lib/wine/wine64 2>/dev/null || true)
if [ ! -f "$exe" ] || [ -z "$wine" ] || ! command -v xvfb-run > /dev/null; then
  echo "skipped: needs $exe (bash scripts/windows/build.sh), wine64 and xvfb-run"
  exit 77
fi
# Wine's Vulkan needs an X display, even for compute: the part runs inside one Xvfb.
if [ -z "${VKLAB_WINE_XVFB:-}" ]; then
  export VKLAB_WINE_XVFB=1
  exec xvfb-run -a -s '-screen 0 1400x900x24' bash "$0" "$@"
fi
rm -rf "$work/$part" && mkdir -p "$work/$part" && cd "$work/$part"
export WINEPREFIX="$work/wine" WINEDEBUG=-all VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
# A Wine server left by an earlier part (or the platform probe's, started without a display)
# would serve this one under a display that is gone: it is ended first (the parts hold the
# CTest resource lock `wine`, so none is running).
"$(dirname "$wine")/wineserver" -k 2> /dev/null || true
win() { "$wine" "$exe" "$@"; }
fail() {
  echo "FAILED: $1"
  exit 1
}

captures() {  # the labs from $1 to $2 in the list's order
  local labs
  labs=$("$linux" --list-presets | cut -d/ -f1 | sort -u | sed -n "$1,$2p")
  [ -n "$labs" ] || fail "no labs listed"
  for lab in $labs; do
    win --headless --lab "$lab" --steps 5 --size 640x400 --capture "$lab-windows.png" > "$lab.txt" 2>&1 ||
      fail "$lab: $(cat "$lab.txt")"
    "$linux" --headless --lab "$lab" --steps 5 --size 640x400 --capture "$lab-linux.png" > /dev/null 2>&1
    cmp "$lab-windows.png" "$lab-linux.png" || fail "$lab: the capture differs from Linux's"
    echo "$lab: the same picture"
  done
}

cli() {
  win --list-devices > devices.txt 2>&1 || fail "--list-devices: $(cat devices.txt)"
  grep -q "usable by vklab" devices.txt || fail "no usable device: $(cat devices.txt)"
  # the same message and exit code for a bad parameter
  set +e
  win --headless --lab wave --set bogus=1 --steps 1 > bad-windows.txt 2>&1
  local code_w=$?
  "$linux" --headless --lab wave --set bogus=1 --steps 1 > bad-linux.txt 2>&1
  local code_l=$?
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
  # an MP4 through the FFmpeg DLLs beside vklab.exe: Wine has no H.264 encoder for Media
  # Foundation, so MPEG-4 Part 2, said in the run's last line; every frame in the file
  win --headless --lab wave --set size=64 --steps 12 --size 320x240 --record wine.mp4 > record.txt 2>&1 ||
    fail "recording an MP4: $(cat record.txt)"
  grep -q "recorded wine.mp4: 12 frames of 320x240 at 30 a second, MPEG-4 Part 2" record.txt ||
    fail "the recording's line: $(cat record.txt)"
  ! grep -q "h264_mf" record.txt || fail "FFmpeg's log of the encoder that did not open leaks: $(cat record.txt)"
  [ "$(mp4_video wine.mp4)" = "mp4v 12" ] || fail "the MP4 holds $(mp4_video wine.mp4), not 12 MPEG-4 frames"
  echo "recorded an MP4: 12 MPEG-4 Part 2 frames"
}

mp4_video() {  # an MP4's first track: its sample entry's type and its sample count (stsd, stsz)
  python3 - "$1" << 'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
found = {}
def walk(at, end):
    while at + 8 <= end:
        size, kind = struct.unpack('>I4s', data[at:at + 8])
        if size < 8: return
        if kind in (b'moov', b'trak', b'mdia', b'minf', b'stbl'): walk(at + 8, at + size)
        elif kind == b'stsd': found.setdefault('type', data[at + 20:at + 24].decode())
        elif kind == b'stsz': found.setdefault('count', struct.unpack('>I', data[at + 16:at + 20])[0])
        at += size
walk(0, len(data))
print(found.get('type'), found.get('count'))
PY
}

window() {
  win --lab cloth --frames 20 --size 1024x640 --with-interface --capture window.png > window.txt 2>&1 ||
    fail "the window: $(cat window.txt)"
  [ "$(stat -c %s window.png)" -gt 50000 ] || fail "the window's capture is nearly empty"
  grep -q "window: 20 frames" window.txt || fail "the window did not draw its frames: $(cat window.txt)"
  echo "the window: 20 frames and a capture"
}

readme() {  # the Readme test $1 with vklab.exe as the program under test
  VKLAB_EXE="$wine $exe" "$tests" --gtest_brief=1 --gtest_filter="Readme.$1" ||
    fail "the README's examples ($1) under Wine"
}

# The suite's command-line tests that do not ask for --validate: Wine's vulkan-1.dll offers no
# layers (the host's validation layer is a Linux library), so the others, which check that a run
# has no validation message, cannot run here. These check usage errors and their exit code, the
# help, a blow-up's message, bad files, a kernel that never ends stopped, the CPU references'
# cache, a bench repeated in fresh processes, the exercises' messages.
cli_suite='Cli.BadUsageExitsWithCode2AndOneLine:Cli.HelpListsLabsAndParameters:Cli.HeadlessBlowUpIsReportedNotHidden:'
cli_suite+='Cli.LinalgCgStopsAtTheIterationCap:Cli.MachiningBadFilesEndTheRunWithTheirName:'
cli_suite+='Cli.MeshLabEndsAKernelThatNeverEnds:Cli.MeshLabRunsTheManualsKernelsAsPrinted:Cli.MeshLabStopsOnNonFiniteFields:'
cli_suite+='Cli.MeshWriteMeshAndTheOpeningsPhases:Cli.ASecondBenchReadsTheCpuReferencesBackAndKnowsHowLongItTakes:'
cli_suite+='CliBench.PrintsEveryRowOfTheLab:CliBench.RunsRepeatTheBenchInFreshProcessesAndReportTheSpread:'
cli_suite+='ClothLabCli.ABlowUpStopsAHeadlessRunWithItsMessage:ExerciseCliMessages.*'

# The zip as a user gets it: unpacked in a folder of its own, vklab.exe run from elsewhere.
from_zip() {
  local zip
  zip="$(dirname "$exe")/../../vklab-windows-x64.zip"
  [ -f "$zip" ] || fail "no $zip: bash scripts/windows/build.sh makes it"
  python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])" "$zip" unpacked
  for f in vklab.exe avcodec-59.dll avformat-59.dll avutil-57.dll swscale-6.dll FFmpeg-COPYING.LGPLv2.1.txt \
    README.txt fonts/DejaVuSans.ttf assets/wave/help.md; do
    [ -f "unpacked/vklab/$f" ] || fail "the zip has no vklab/$f"
  done
  # every compiled kernel (vklab.exe would fall back on the build's folder, which a user has not)
  local built zipped
  built=$(find "$(dirname "$exe")/../shaders" -name '*.spv' | wc -l)
  zipped=$(find unpacked/vklab/shaders -name '*.spv' | wc -l)
  [ "$built" -gt 0 ] && [ "$zipped" = "$built" ] || fail "the zip holds $zipped of the $built compiled kernels"
  mkdir elsewhere && cd elsewhere
  "$wine" ../unpacked/vklab/vklab.exe --headless --lab wave --steps 5 --size 640x400 --capture zip.png \
    --record zip.mp4 > zip.txt 2>&1 || fail "vklab.exe from the zip: $(cat zip.txt)"
  "$linux" --headless --lab wave --steps 5 --size 640x400 --capture linux.png > /dev/null 2>&1
  cmp zip.png linux.png || fail "the zip's vklab.exe draws another picture than Linux's"
  grep -q "recorded zip.mp4: 5 frames of 640x400 at 30 a second, MPEG-4 Part 2" zip.txt ||
    fail "the zip's vklab.exe did not record with the DLLs beside it: $(cat zip.txt)"
  echo "the zip, unpacked elsewhere: the same picture, and an MP4 through its DLLs"
}

case $part in
  captures-a) captures 1 4 ;;
  captures-b) captures 5 99 ;;
  cli) cli ;;
  window) window ;;
  readme-headless) readme HeadlessExamplesRunAsWritten ;;
  readme-headless-2) readme MoreHeadlessExamplesRunAsWritten ;;
  readme-bench) readme BenchExamplesRunAsWritten ;;
  zip) from_zip ;;
  cli-suite)
    VKLAB_EXE="$wine $exe" "$tests" --gtest_brief=1 --gtest_filter="$cli_suite" ||
      fail "the suite's command-line tests under Wine"
    ;;
  *) fail "no part '$part'" ;;
esac
