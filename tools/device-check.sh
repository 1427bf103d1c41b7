#!/bin/sh
# device-check.sh: a one-shot check of the OpenCL backend on a machine with an OpenCL GPU
# and no R. Needs a C compiler with OpenMP, make, the OpenCL headers and an ICD loader, and
# a driver that registers the GPU (/etc/OpenCL/vendors/*.icd). The headers and the loader
# may come as Debian packages unpacked next to this script (or in DEPS):
#
#   mkdir deps && for p in ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers \
#       opencl-clhpp-headers; do apt-get download $p; done   (on a machine with apt)
#   for f in *.deb; do dpkg-deb -x $f deps; done
#
# Then, from the repository root:
#
#   sh tools/device-check.sh [--quick]          (DEPS=dir: the unpacked packages)
#
# It builds the C harness and the benchmark driver (tests/c), runs the harness (the CPU
# against every OpenCL device in double precision, bit for bit, on random problems), then
# times the seed case, the many-maps case, 1008 maps of the seed case and the batch case on
# the CPU backend and each device, and prints one table. About 5 minutes on a GPU machine;
# --quick (smaller cases, fewer harness problems) runs on PoCL in a few minutes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
quick=""
harness_n=64
if [ "${1:-}" = "--quick" ]; then quick="--quick"; harness_n=16; fi

# headers and loader: DEPS, else tools/deps, else the system's
deps=${DEPS:-$here/deps}
ocl_cflags=""
ocl_libs="-lOpenCL"
if [ -d "$deps/usr/include/CL" ]; then
  ocl_cflags="-I$deps/usr/include"
  lib=$(find "$deps" -name 'libOpenCL.so*' | head -n 1)
  if [ -n "$lib" ]; then
    libdir=$(dirname "$lib")
    # the development package's libOpenCL.so link may be missing: link the versioned file
    if [ ! -e "$libdir/libOpenCL.so" ]; then ln -sf "$(basename "$lib")" "$libdir/libOpenCL.so"; fi
    ocl_libs="-L$libdir -Wl,-rpath,$libdir -lOpenCL"
    LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH
  fi
  echo "device-check: OpenCL headers and loader from $deps"
fi

cd "$root/tests/c" || exit 2
# at most the machine's cores; PoCL's kernel cache under build/
threads=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
export OMP_NUM_THREADS="$threads"
mkdir -p build/pocl-cache
export POCL_CACHE_DIR="$root/tests/c/build/pocl-cache"

echo "device-check: building (cc: $(${CC:-cc} --version | head -n 1))"
if ! make -s OCL_CFLAGS="$ocl_cflags" OCL_LIBS="$ocl_libs" build/harness-plain build/bench; then
  echo "device-check: the build failed"
  exit 2
fi

echo
echo "== agreement: the C harness (CPU and OpenCL, double precision, $harness_n problems) =="
start=$(date +%s)
./build/harness-plain -n "$harness_n" > build/device-harness.log 2>&1
harness_rc=$?
grep -a -E '^harness \[|^  (CPU|OpenCL|device)' build/device-harness.log | head -n 20
grep -a -E 'FAIL' build/device-harness.log | head -n 10
echo "harness: exit status $harness_rc, $(( $(date +%s) - start )) s (log: tests/c/build/device-harness.log)"

echo
echo "== timings =="
./build/bench $quick
bench_rc=$?

echo
echo "machine: $(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $threads CPU threads"
if command -v nvidia-smi > /dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null |
    sed 's/^/gpu: /'
fi
if [ $harness_rc -ne 0 ] || [ $bench_rc -ne 0 ]; then
  echo "device-check: FAILED (harness $harness_rc, bench $bench_rc)"
  exit 1
fi
echo "device-check: passed"
