#!/usr/bin/env bash
# The Windows side of compute/io/platform.cpp, input.cpp, output.cpp, interrupt.cpp and user_dirs.cpp, with
# vklab.exe's manifest: built with MinGW-w64 and run under
# Wine (ctest -L windows; scripts/install-deps.sh --windows installs both). Exit 77 (skipped)
# where either is missing.
# Usage: platform_under_wine.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
cxx=$(command -v x86_64-w64-mingw32-g++-posix || true)
wine=$(command -v wine64 || ls /usr/lib/wine/wine64 2>/dev/null || true)
if [ -z "$cxx" ] || [ -z "$wine" ]; then
  echo "skipped: needs x86_64-w64-mingw32-g++-posix and wine64 (scripts/install-deps.sh --windows)"
  exit 77
fi
mkdir -p "$work"
x86_64-w64-mingw32-windres -I"$src/app" "$src/app/vklab.rc" -O coff -o "$work/manifest.o"
"$cxx" -std=c++20 -O1 -Wall -Wextra -Werror -static -I"$src" "$src/tests/windows/platform_probe.cpp" \
  "$src/compute/io/platform.cpp" "$src/compute/io/input.cpp" "$src/compute/io/interrupt.cpp" \
  "$src/compute/io/output.cpp" "$src/compute/io/user_dirs.cpp" "$work/manifest.o" -lshell32 -lole32 -luuid \
  -o "$work/platform_probe.exe"
export WINEPREFIX="$work/wine" WINEDEBUG=-all
rm -f "$work/probe.txt"
# in a terminal (script(1)): Wine gives the program a console, which Ctrl-C events need
(cd "$work" && script -qec "$wine platform_probe.exe" /dev/null > /dev/null 2>&1) || true
out=$(tr -d '\r' < "$work/probe.txt")
echo "$out"
want() { grep -qx "$1" <<<"$out" || { echo "expected a line matching: $1"; exit 1; }; }
want 'console_note none'
want 'code_page 65001'
want 'executable [A-Z]:\\.*\\platform_probe\.exe'
want 'pid [1-9][0-9]*'
want 'year 2025'
want 'resident [1-9][0-9]*'
want 'heap_grew 1'
want 'library kernel32\.dll'
want 'symbol 1'
want 'missing 0'
want 'why not-there\.dll: [A-Za-z].*[a-z]\.\?'
want 'held 1'
want 'read twelve bytes'
want 'too_big 1 KiB, more than the 1 KiB vklab reads for it'
want 'folder is a directory, not a file'
want 'absent cannot read the file (.*)'
want 'write_file second, longer'
want 'output_file whole'
want 'output_folder two'
want 'entries 3'
want 'unwritable refused'
want 'run_process 7'
want 'run_missing -1'
want 'run_utf8 8'
want 'utf8_name 1 1'
want 'settings [A-Z]:\\users\\[^\\]*\\AppData\\Roaming\\vklab'
want 'cache [A-Z]:\\users\\[^\\]*\\AppData\\Local\\vklab'
want 'captures [A-Z]:\\users\\[^\\]*\\Pictures\\vklab'
want 'recordings [A-Z]:\\users\\[^\\]*\\Videos\\vklab'
want 'exercises [A-Z]:\\users\\[^\\]*\\Documents\\vklab-exercises'
want 'settings_override D:\\elsewhere'
want 'interrupted SIGINT (Ctrl-C)'
