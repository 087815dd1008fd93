#!/usr/bin/env bash
# Builds vklab's .deb from a Release build folder (CPack; its Depends from dpkg-shlibdeps), then,
# with --check, installs it with apt as a user would, runs the installed program (the devices it
# sees, a headless capture, the menu entry and icon in place) and removes it again. CI runs it
# with --check after the tests. Usage: bash scripts/package.sh [--check] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
build=${1:-build}
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
rm -f "$build"/vklab_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/vklab_*.deb)
echo "package.sh: built $deb"
dpkg-deb --field "$deb" Package Version Depends Recommends
[ "$check" = 1 ] || exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"; $SUDO apt-get remove -y -qq vklab >/dev/null 2>&1 || true' EXIT
$SUDO apt-get install -y -qq --no-install-recommends "$(realpath "$deb")" >/dev/null
for f in /usr/bin/vklab /usr/share/applications/vklab.desktop /usr/share/icons/hicolor/scalable/apps/vklab.svg \
  /usr/share/icons/hicolor/48x48/apps/vklab.png /usr/share/vklab/assets/wave/help.md /usr/share/doc/vklab/README.md; do
  [ -f "$f" ] || { echo "package.sh: $f is not installed" >&2; exit 1; }
done
if command -v desktop-file-validate >/dev/null; then desktop-file-validate /usr/share/applications/vklab.desktop; fi
export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
# from a folder that is not the source tree, so the installed assets and SPIR-V are the ones found
(cd "$work" && env -u VKLAB_ASSET_DIR -u VKLAB_SHADER_DIR /usr/bin/vklab --list-devices)
(cd "$work" && /usr/bin/vklab --headless --lab wave --steps 20 --size 640x400 --capture wave.png --validate)
[ -s "$work/wave.png" ] || { echo "package.sh: the installed vklab wrote no capture" >&2; exit 1; }
$SUDO apt-get remove -y -qq vklab >/dev/null
[ ! -e /usr/bin/vklab ] || { echo "package.sh: vklab is still installed after its removal" >&2; exit 1; }
echo "package.sh: installed, ran from /usr/bin/vklab and removed"
