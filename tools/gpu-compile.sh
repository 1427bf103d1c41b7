#!/bin/sh
# gpu-compile.sh: compile the OpenCL kernels, exactly the program the package embeds
# (tools/embed-kernels.sh --source), for an NVIDIA and an AMD GPU target with clang, in
# double and in single precision, and check what a GPU's compiler would make of them:
#   - every kernel of the source is in the module;
#   - double: no multiply-add is fused. Results match the CPU bit for bit only because
#     `#pragma OPENCL FP_CONTRACT OFF` holds: no llvm.fmuladd / llvm.fma in the IR, no
#     fma.rn.f64 in the PTX, and on AMD no v_fma_f64 / v_fmac_f64 but those of the
#     correctly rounded division sequence (v_div_scale_f64 ... v_div_fixup_f64);
#   - single: no double arithmetic at all (devices without fp64 reject it).
# Run from the package root (tools/run-tests.R runs it as the step gpu-compile). One line per
# check, "ok", "FAIL" or "skip", then a summary "N passed, N failed, N skipped"; the exit
# status is 1 when a check failed. Without clang (CLANG= names one) every check is skipped.
# KEEP=dir keeps the IR and assembly there.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
clang=${CLANG:-}
if [ -z "$clang" ]; then
  for c in clang-15 clang clang-16 clang-17 clang-14; do
    if command -v "$c" > /dev/null 2>&1; then clang=$c; break; fi
  done
fi
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
cleanup() { if [ -z "${KEEP:-}" ]; then rm -rf "$work"; fi; }
trap cleanup EXIT

passed=0; failed=0; skipped=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { if [ "$2" = 0 ]; then ok "$1"; else bad "$1 ($3)"; fi; }

targets="nvptx64-nvidia-nvcl amdgcn-amd-amdhsa"
sh tools/embed-kernels.sh --source "$work/kernels.cl"
nkernels=$(grep -c '^__kernel' "$work/kernels.cl")
if [ -z "$clang" ] || ! "$clang" --print-targets 2> /dev/null | grep -q nvptx64; then
  for t in $targets; do for p in double single; do
    echo "skip $t $p: no clang with GPU targets (Debian: clang-15, which PoCL installs)"
    skipped=$((skipped + 1))
  done; done
  echo "$passed passed, $failed failed, $skipped skipped"
  exit 0
fi
echo "gpu-compile: $("$clang" --version | head -n 1), $nkernels kernels"

for t in $targets; do
  case $t in
    amdgcn*) cpu="-mcpu=gfx90a -nogpulib" ;;  # MI200; no device library: calls stay calls
    *) cpu="" ;;
  esac
  for p in double single; do
    case $p in
      double) defs="-DSOM_REAL=double -DSOM_DOUBLE=1" ;;
      single) defs="-DSOM_REAL=float -DSOM_NO_DOUBLE=1" ;;
    esac
    name="$t $p"
    ll="$work/$t-$p.ll"; asm="$work/$t-$p.s"
    # shellcheck disable=SC2086
    if ! "$clang" -x cl -cl-std=CL1.2 -target "$t" $cpu $defs -Xclang -finclude-default-header \
         -O2 -S -emit-llvm -o "$ll" "$work/kernels.cl" > "$work/log" 2>&1 ||
       ! "$clang" -x cl -cl-std=CL1.2 -target "$t" $cpu $defs -Xclang -finclude-default-header \
         -O2 -S -o "$asm" "$work/kernels.cl" >> "$work/log" 2>&1; then
      bad "$name: compiles"
      cat "$work/log"
      continue
    fi
    ok "$name: compiles"
    n=$(grep -c -E '^define .*(spir_kernel|ptx_kernel|amdgpu_kernel)' "$ll")
    check "$name: all $nkernels kernels in the module" $((n != nkernels)) "$n found"
    if [ $p = double ]; then
      n=$(grep -c -E 'llvm\.fmuladd|llvm\.fma\.' "$ll")
      check "$name: no fused multiply-add in the IR" "$n" "$n found"
      case $t in
        nvptx*) n=$(grep -c 'fma\.rn\.f64' "$asm")
                check "$name: no fma.rn.f64 in the PTX" "$n" "$n found" ;;
        amdgcn*) n=$(awk '/v_div_scale_f64/ { div = 1 } /v_div_fixup_f64/ { div = 0 }
                          /v_fmac?_f64/ && !div { n++ } END { print n + 0 }' "$asm")
                 check "$name: no v_fma_f64 outside division sequences" "$n" "$n found" ;;
      esac
    else
      n=$(grep -c -E '(fadd|fsub|fmul|fdiv|fneg|fcmp [a-z]+|fpext|fptrunc|sitofp|uitofp|fptosi|fptoui|call) [^;]*double' "$ll")
      check "$name: no double arithmetic in the IR" "$n" "$n found"
      case $t in
        nvptx*) n=$(grep -c -E '\.f64' "$asm") ;;
        amdgcn*) n=$(grep -c -E '^[[:space:]]+v_[a-z0-9_]*_f64' "$asm") ;;
      esac
      check "$name: no double instruction in the assembly" "$n" "$n found"
    fi
  done
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
