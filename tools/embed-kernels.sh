#!/bin/sh
# Write the OpenCL kernel source, embedded as a C string array, to the file named by $1
# (configure writes src/opencl/som_kernels.h; the C harness in tests/c writes its own copy);
# with --source first, write the same program as plain OpenCL C (tools/gpu-compile.sh
# compiles it for GPU targets). Run from the package root. The prelude comes first (before
# any arithmetic): no contraction, the fp64 switch, and SOM_OPENCL_C, the one switch by which
# the shared headers know they are compiled as OpenCL C (compilers disagree on which of
# __OPENCL_VERSION__ and __OPENCL_C_VERSION__ they define); then the shared random streams
# and ring arithmetic, then the kernels.
plain=""
if [ "${1:-}" = "--source" ]; then plain=1; shift; fi
out="$1"
program() {
  printf '#pragma OPENCL FP_CONTRACT OFF\n'
  printf '#ifdef SOM_DOUBLE\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n'
  printf '#define SOM_OPENCL_C 1\n'
  cat src/core/som_rng.h src/core/som_math.h inst/cl/som_online.cl inst/cl/som_batch.cl |
    sed -e 's/\r$//'
}
if [ -n "$plain" ]; then
  program > "${out}"
  exit 0
fi
{
  echo "/* Generated from src/core/som_rng.h, src/core/som_math.h, inst/cl/som_online.cl and"
  echo " * inst/cl/som_batch.cl by"
  echo " * tools/embed-kernels.sh: do not edit."
  echo " * One string per line: clCreateProgramWithSource joins them. */"
  echo "static const char *som_kernel_lines[] = {"
  program | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n",/'
  echo "};"
} > "${out}"
