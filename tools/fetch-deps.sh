#!/bin/sh
# fetch-deps.sh: what tools/device-check.sh needs and a bare GPU machine may lack, fetched
# here (a Debian machine with apt) into tools/deps (ignored by git): the OpenCL headers and
# the ICD loader, as Debian packages unpacked. The device machine cannot download; carry
# the folder there with the working tree (the device tool's `carry: ["tools/deps"]`).
#
#   sh tools/fetch-deps.sh            then   sh tools/device-check.sh   on the GPU machine
set -eu
here=$(cd "$(dirname "$0")" && pwd)
deps="$here/deps"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$deps"
cd "$tmp"
for p in ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers; do
  # (apt's note that the download ran unsandboxed, as root into a private folder, is dropped)
  apt-get download "$p" > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
done
for f in *.deb; do dpkg-deb -x "$f" "$deps"; done
echo "fetch-deps: $(ls ./*.deb | wc -l) packages unpacked into $deps ($(du -sh "$deps" | cut -f1))"
