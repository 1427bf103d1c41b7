#!/bin/sh
# Write the OpenCL kernel source, embedded as a C string array, to the file named by $1
# (configure writes src/opencl/som_kernels.h; the C harness in tests/c writes its own copy). Run
# from the package root. No contraction and the fp64 switch come first (before any
# arithmetic), then the shared random streams and ring arithmetic, then the kernels.
out="$1"
{
  echo "/* Generated from src/core/som_rng.h, src/core/som_math.h, inst/cl/som_online.cl and"
  echo " * inst/cl/som_batch.cl by"
  echo " * tools/embed-kernels.sh: do not edit."
  echo " * One string per line: clCreateProgramWithSource joins them. */"
  echo "static const char *som_kernel_lines[] = {"
  { printf '#pragma OPENCL FP_CONTRACT OFF\n'
    printf '#ifdef SOM_DOUBLE\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n'
    cat src/core/som_rng.h src/core/som_math.h inst/cl/som_online.cl inst/cl/som_batch.cl; } |
    sed -e 's/\r$//' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n",/'
  echo "};"
} > "${out}"
