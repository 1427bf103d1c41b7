library(testthat)
library(somgpu)

test_check("somgpu")
