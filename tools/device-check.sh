#!/bin/sh
# device-check.sh: a one-shot check of the OpenCL backend on a machine with an OpenCL GPU
# and no R. Needs a C compiler with OpenMP, make, and a driver that registers the GPU
# (/etc/OpenCL/vendors/*.icd); the OpenCL headers and ICD loader come from tools/deps (or
# DEPS), Debian packages unpacked there by tools/fetch-deps.sh on a machine with apt (the
# GPU machine cannot download), else from the system. From the repository root:
#
#   sh tools/fetch-deps.sh                      (here; carry tools/deps to the GPU machine)
#   sh tools/device-check.sh [--quick]          (there)
#
# It builds the C harness and the benchmark driver (tests/c) and runs
#   1. the harness: the CPU against every OpenCL device in double precision, bit for bit, on
#      random problems and under every option, rings over 256 neurons with weights over
#      48 KiB, small local memory faked, every kernel launched (counts printed), and single
#      precision batch against double;
#   2. the benchmark (tests/c/bench.c): the seed case, many maps, 1008 and 10 008 maps of
#      the seed case, the batch case, on the CPU backend and each device, online with the
#      kernel train() picks and with the work-item and the work-group kernel, batch with and
#      without local memory; per run the kernels that ran, their global and local sizes and
#      device times (profiling events); single precision's difference from double; the
#      work-item against the work-group kernel by ring size; each program's binary written
#      to tests/c/build/ and, on NVIDIA, its fused multiply-adds counted (0 in double).
# About 5 minutes on a GPU machine (each part stops at 4 minutes: TIMEOUT=seconds);
# --quick (smaller cases, fewer harness problems) runs on PoCL in a few minutes. Everything
# is also written to tests/c/build/device-check.log (and to $OUT/ when OUT is set).
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
  lib=$(find "$deps" -path '*/lib/*' -name 'libOpenCL.so*' | sort | head -n 1)
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

limit=${TIMEOUT:-240}
log=build/device-check.log
: > "$log"
{
echo
echo "== agreement: the C harness (CPU and OpenCL, $harness_n problems) =="
start=$(date +%s)
timeout "$limit" ./build/harness-plain -n "$harness_n" > build/device-harness.log 2>&1
harness_rc=$?
grep -a -E '^harness \[|^  (CPU|OpenCL|device|launches|single)' build/device-harness.log | head -n 20
grep -a -E 'FAIL' build/device-harness.log | head -n 10
echo "harness: exit status $harness_rc, $(( $(date +%s) - start )) s (log: tests/c/build/device-harness.log)"
echo "$harness_rc" > build/harness.rc

echo
echo "== timings =="
timeout "$limit" ./build/bench $quick
echo $? > build/bench.rc
} 2>&1 | tee -a "$log"
harness_rc=$(cat build/harness.rc)
bench_rc=$(cat build/bench.rc)

{
echo
echo "machine: $(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $threads CPU threads"
if command -v nvidia-smi > /dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null |
    sed 's/^/gpu: /'
fi
} | tee -a "$log"
if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then
  cp build/device-check.log build/device-harness.log "$OUT"/ 2>/dev/null
  cp build/program-*.bin "$OUT"/ 2>/dev/null
fi
if [ $harness_rc -ne 0 ] || [ $bench_rc -ne 0 ]; then
  echo "device-check: FAILED (harness $harness_rc, bench $bench_rc)"
  exit 1
fi
echo "device-check: passed"
